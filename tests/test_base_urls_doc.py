"""The README's base-URL table is what each codec does: its default URL is the default base plus
the path it adds, a base URL given is used as is, with that same path added, and one ending in a
version segment is taken, or refused, as its last column says (issue 40: where ``/v1`` belongs
differed by codec and was written nowhere)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import interlingua as il

ROOT = Path(__file__).resolve().parents[1]
ROW = re.compile(r"^\| `([a-z-]+)` \| `(https://[^`]+)` \| `(/[^`]+)` \| ([^|]+) \|$", re.M)
ROWS = {m.group(1): m.groups()[1:] for m in ROW.finditer((ROOT / "README.md").read_text(encoding="utf-8"))}
SETTINGS = {"aws_region": "us-east-1"}  # a Converse URL names its region


def test_the_table_lists_every_installed_codec() -> None:
    assert sorted(ROWS) == sorted(il.codecs())


@pytest.mark.parametrize("wire", sorted(ROWS))
def test_the_codec_does_what_its_row_says(wire: str) -> None:
    base, added, _ = ROWS[wire]
    codec = il.get_codec(wire)
    request = il.Request(model="acme-1", max_tokens=8, messages=[il.Message.user("hi")])
    path = added.replace("{model}", "acme-1")
    default = codec.http_request(request, stream=False, endpoint=il.Endpoint(api_key="k", settings=SETTINGS))
    assert default.url == base.replace("{region}", "us-east-1") + path
    given = il.Endpoint(base_url="http://127.0.0.1:9/some/prefix", api_key="k", settings=SETTINGS)
    assert codec.http_request(request, stream=False, endpoint=given).url == "http://127.0.0.1:9/some/prefix" + path


@pytest.mark.parametrize("wire", sorted(ROWS))
def test_a_base_url_ending_in_a_version_does_what_its_row_says(wire: str) -> None:
    """The last column: ``/v1`: taken`` (sent once), ``: that version`` (sent in its place),
    ``: refused`` (an EncodeError at base_url), ``anything: used as given``."""
    _, added, ending = ROWS[wire]
    codec = il.get_codec(wire)
    request = il.Request(model="acme-1", max_tokens=8, messages=[il.Message.user("hi")])
    path = added.replace("{model}", "acme-1")
    clauses = [clause.partition(": ") for clause in ending.strip().split("; ")]
    verdicts = {verdict for _, _, verdict in clauses}
    assert verdicts and verdicts <= {"taken", "that version", "refused", "used as given"}
    for segments, _, verdict in clauses:
        for segment in re.findall(r"`(/v\w+)`", segments) or ["/v1"]:
            given = il.Endpoint(base_url="http://127.0.0.1:9/p" + segment, api_key="k", settings=SETTINGS)
            if verdict == "refused":
                with pytest.raises(il.EncodeError, match="give the base URL without it"):
                    codec.http_request(request, stream=False, endpoint=given)
                continue
            url = codec.http_request(request, stream=False, endpoint=given).url
            if verdict == "taken":
                assert url == "http://127.0.0.1:9/p" + path
            elif verdict == "that version":
                assert url == "http://127.0.0.1:9/p" + segment + "/" + path.split("/", 2)[2]
            else:
                assert url == "http://127.0.0.1:9/p" + segment + path
