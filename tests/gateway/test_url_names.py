"""Every name that reaches a URL (model, deployment, ARN, project, location) stays inside its one
path segment, or is refused with a typed error: fuzzed through every codec's ``http_request``,
its cloud doors included. (Issue 39: a model ``gem-../../../../v1/secrets?x=1#`` once made a
gemini upstream call go to ``/v1/secrets?x=1`` with the gateway's key.)"""

from __future__ import annotations

from dataclasses import dataclass, field
from urllib.parse import urlsplit

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import interlingua as il
from interlingua import Endpoint, InterlinguaError, Request, get_codec

BASE = "https://vendor.test/base"


@dataclass(frozen=True)
class Target:
    """A codec through one door; ``names`` the settings that reach its URL (the model always does)."""

    codec: str
    settings: dict[str, str] = field(default_factory=dict)
    names: tuple[str, ...] = ()

    @property
    def id(self) -> str:
        return f"{self.codec}:{self.settings.get('door', 'own')}"


TARGETS = [
    *(Target(name) for name in il.codecs() if name != "bedrock-converse"),
    Target("bedrock-converse", {"aws_region": "us-east-1"}),
    Target("anthropic-messages", {"door": "bedrock", "aws_region": "us-east-1"}),
    Target(
        "anthropic-messages",
        {"door": "vertex", "vertex_project": "p", "vertex_location": "us-east5"},
        ("vertex_project", "vertex_location"),
    ),
    Target("gemini", {"door": "vertex", "vertex_project": "p"}, ("vertex_project", "vertex_location", "api_version")),
    Target("gemini", {}, ("api_version",)),
    Target("openai-chat", {"door": "azure", "api_version": "2025-01-01"}),
    Target("openai-chat", {"door": "azure", "api_version": "2025-01-01"}, ("azure_deployment",)),
    Target("openai-responses", {"door": "azure", "api_version": "2025-01-01"}),
]

PIECES = ["/", "..", ".", "?", "#", "%2f", "%2F", "%2e%2e", "\r\n", "\x00", "\t", " ", "é", "模型", "\U0001f600"]
PIECES += ["@", ":", "a", "gem-", "models/", "tunedModels/", "x=1&", "\\", ";", "v1/secrets"]
HOSTILE = st.one_of(st.lists(st.sampled_from(PIECES), max_size=8).map("".join), st.text(max_size=16))


def _url(target: Target, model: str, names: dict[str, str], *, stream: bool) -> str:
    endpoint = Endpoint(base_url=BASE, api_key="k", settings={**target.settings, **names})
    codec = get_codec(target.codec)
    return codec.http_request(Request(model=model, messages=[]), stream=stream, endpoint=endpoint).url


def _shape(url: str) -> tuple[str, str, int, str, str]:
    parts = urlsplit(url)
    return parts.scheme, parts.netloc, parts.path.count("/"), parts.query, parts.fragment


@pytest.mark.parametrize("target", TARGETS, ids=lambda t: t.id)
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(name=HOSTILE, stream=st.booleans())
def test_a_hostile_name_stays_in_one_path_segment_or_is_refused(target: Target, name: str, stream: bool) -> None:
    import httpx2

    benign = _url(target, "m", {}, stream=stream)
    fuzzed = {key: name for key in target.names}
    model = "m" if target.names else name
    try:
        url = _url(target, model, fuzzed, stream=stream)
    except InterlinguaError:  # refused, typed (an EncodeError naming the field)
        return

    path = urlsplit(url).path
    assert _shape(url) == _shape(benign), url  # the same host, as many segments, the same query, no fragment
    assert path.startswith(urlsplit(BASE).path + "/"), url
    assert httpx2.URL(url).raw_path.decode("ascii").split("?")[0] == path, url  # no dot segment resolved away
    assert all(0x20 < ord(char) < 0x7F for char in path), url


@pytest.mark.parametrize(
    ("target", "key"),
    [
        (Target("bedrock-converse"), "aws_region"),
        (Target("anthropic-messages", {"door": "bedrock"}), "aws_region"),
        (Target("anthropic-messages", {"door": "vertex", "vertex_project": "p"}), "vertex_location"),
        (Target("gemini", {"door": "vertex", "vertex_project": "p"}), "vertex_location"),
    ],
    ids=lambda t: t if isinstance(t, str) else t.id,
)
@settings(max_examples=100, deadline=None)
@given(name=HOSTILE)
def test_a_hostile_region_cannot_change_the_host(target: Target, key: str, name: str) -> None:
    endpoint = Endpoint(api_key="k", settings={**target.settings, key: name})
    try:
        url = get_codec(target.codec).http_request(Request(model="m", messages=[]), stream=False, endpoint=endpoint).url
    except InterlinguaError:
        return
    host = urlsplit(url).hostname or ""
    assert host.endswith((".amazonaws.com", ".googleapis.com")) and host.count(".") <= 4, url
    assert all(c.isascii() and (c.isalnum() or c in ".-") for c in host), url


def test_the_reported_model_is_escaped_into_the_gemini_path() -> None:
    url = _url(Target("gemini"), "gem-../../../../v1/secrets?x=1#", {}, stream=False)
    assert url == f"{BASE}/v1beta/models/gem-..%2F..%2F..%2F..%2Fv1%2Fsecrets%3Fx%3D1%23:generateContent"


@pytest.mark.parametrize("name", [".", ".."])
def test_a_name_a_url_would_resolve_away_is_an_encode_error(name: str) -> None:
    with pytest.raises(il.EncodeError) as caught:
        _url(Target("bedrock-converse", {"aws_region": "us-east-1"}), name, {}, stream=False)
    assert (caught.value.path, caught.value.reason) == ("model", f"{name!r} cannot name one URL path segment")
