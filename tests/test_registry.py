"""The registry finds codecs through entry points and names the installed ones when it cannot."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

import interlingua as il


def test_codecs_lists_the_entry_point_names() -> None:
    assert set(il.codecs()) >= {"anthropic-messages", "openai-chat", "openai-responses", "gemini"}
    assert il.codecs() == sorted(il.codecs())


def test_unknown_codec_lists_the_installed_ones() -> None:
    with pytest.raises(il.UnknownCodecError) as err:
        il.get_codec("acme-chat")
    for name in il.codecs():
        assert name in str(err.value)
    assert isinstance(err.value, LookupError)


def test_import_loads_no_vendor_sdk_and_no_http_stack() -> None:
    code = (
        "import sys, interlingua; "
        "print(sorted(m for m in ('anthropic', 'openai', 'google.genai', 'google.auth', 'botocore', 'cohere', "
        "'httpx2', 'hypothesis') if m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


def test_the_core_has_no_vendor_names() -> None:
    from pathlib import Path

    root = Path(il.__file__).parent
    vendors = ("anthropic", "openai", "gemini", "google", "claude", "gpt-", "mistral")
    offenders = [
        f"{path.relative_to(root)}: {word}"
        for path in root.rglob("*.py")
        # The test kit included: each wire's SDK oracle lives in its codec package. Wire
        # detection is the codecs' (their sniff hooks); the gateway's routes and error bodies
        # and the CLI's batch lines and logged paths are theirs too (``Codec.serving``).
        # _gcp_auth.py names its credential library's import path, as _sigv4.py names botocore.
        # cli/demo.py shows one concrete run (issue 40: recorded requests converted to one wire,
        # then an official SDK through the gateway to a fake vendor): it names that wire and SDK.
        if path.name != "_gcp_auth.py" and path.relative_to(root).as_posix() != "cli/demo.py"
        for word in vendors
        if word in path.read_text(encoding="utf-8").lower()
    ]
    assert offenders == []


# --- discovery without importlib.metadata -------------------------------------------------------

ACME = """\
# written by an installer
[console_scripts]
acme = acme_codec.cli:main

[interlingua.codecs]
acme-chat = acme_codec:codecs.AcmeChat [fast]
acme-raw=acme_codec
"""


def _distribution(root: Path, folder: str, text: str) -> None:
    (root / folder).mkdir(parents=True)
    (root / folder / "entry_points.txt").write_text(text, encoding="utf-8")


def test_a_third_party_distribution_on_the_path_is_found_and_loads(tmp_path: Path) -> None:
    from interlingua import _registry

    _distribution(tmp_path, "acme_codec-1.0.dist-info", ACME)
    (tmp_path / "acme_codec.py").write_text("import types\ncodecs = types.SimpleNamespace(AcmeChat=object)\n")
    found = _registry._scan([str(tmp_path / "missing"), str(tmp_path)])
    assert found == {
        "acme-chat": ("acme-chat", "acme_codec:codecs.AcmeChat [fast]"),
        "acme-raw": ("acme-raw", "acme_codec"),
    }
    sys.path.insert(0, str(tmp_path))
    try:
        assert found["acme-chat"].load() is object
        assert found["acme-raw"].load() is sys.modules["acme_codec"]
    finally:
        sys.path.remove(str(tmp_path))
        sys.modules.pop("acme_codec", None)


def test_the_first_copy_of_a_distribution_on_the_path_wins_as_in_the_stdlib(tmp_path: Path) -> None:
    """``importlib.metadata`` keys a distribution by its PEP 503 name (``Acme.Codec`` is
    ``acme_codec``) and keeps the first copy on the path; egg-info folders count as well."""
    from interlingua import _registry

    _distribution(tmp_path / "first", "Acme.Codec-2.0.dist-info", "[interlingua.codecs]\nacme-chat = new:Codec\n")
    _distribution(tmp_path / "second", "acme_codec-1.0.dist-info", "[interlingua.codecs]\nacme-chat = old:Codec\n")
    _distribution(tmp_path / "second", "other.egg-info", "[interlingua.codecs]\nacme-beta = other:Codec\n")
    found = _registry._scan([str(tmp_path / "first"), str(tmp_path / "second")]) or {}
    values = {name: entry.value for name, entry in found.items()}
    assert values == {"acme-chat": "new:Codec", "acme-beta": "other:Codec"}


def test_the_installed_codecs_are_what_importlib_metadata_finds() -> None:
    from importlib.metadata import entry_points

    from interlingua import _registry

    ours = {name: entry.value for name, entry in (_registry._scan(sys.path) or {}).items()}
    assert ours == {ep.name: ep.value for ep in entry_points(group=_registry.GROUP)}


def test_a_zip_on_the_path_leaves_discovery_to_the_stdlib(tmp_path: Path) -> None:
    from interlingua import _registry

    archive = tmp_path / "bundle.zip"
    archive.write_bytes(b"PK\x05\x06" + bytes(18))  # an empty zip archive
    assert _registry._scan([str(archive)]) is None


def test_finding_the_codecs_does_not_import_importlib_metadata() -> None:
    code = (
        "import sys, interlingua as il; il.get_codec('gemini'); "
        "print(sorted(m for m in ('importlib.metadata', 'email', 'zipfile') if m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


def test_a_finder_with_distributions_of_its_own_leaves_discovery_to_the_stdlib(monkeypatch: pytest.MonkeyPatch) -> None:
    from importlib.metadata import entry_points

    from interlingua import _registry

    class Finder:
        asked = 0

        @classmethod
        def find_distributions(cls, *args: object, **kwargs: object) -> list[object]:
            cls.asked += 1
            return []

    monkeypatch.setattr(sys, "meta_path", [*sys.meta_path, Finder])
    assert not _registry._path_finder_only()
    found = _registry._entry_points.__wrapped__()
    assert Finder.asked >= 1  # importlib.metadata asked it: the stdlib did the search
    assert {name: entry.value for name, entry in found.items()} == {
        ep.name: ep.value for ep in entry_points(group=_registry.GROUP)
    }


def test_the_importlib_metadata_backport_searches_the_path_as_the_stdlib_does() -> None:
    pytest.importorskip("importlib_metadata")
    code = (
        "import sys, importlib_metadata; from interlingua import _registry; "
        "print(any(type(f).__module__ == 'importlib_metadata' for f in sys.meta_path), _registry._path_finder_only())"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.split() == ["True", "True"]
