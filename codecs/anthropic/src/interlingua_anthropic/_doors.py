"""The other doors to the Messages wire: Claude on Amazon Bedrock and on Google Vertex AI.

Both serve the Messages body with the same blocks; what changes is where it goes, how it
authenticates and three body fields. ``Endpoint.settings["door"]`` picks the door:

- ``"bedrock"`` (InvokeModel): ``POST {base}/model/{model}/invoke`` (streaming:
  ``/invoke-with-response-stream``, answered in binary event-stream frames whose ``chunk``
  events carry each Messages event base64-encoded), base ``https://bedrock-runtime.{region}.
  amazonaws.com``, region from ``settings["aws_region"]`` or ``AWS_REGION`` /
  ``AWS_DEFAULT_REGION``. The body loses ``model`` and ``stream`` and gains ``anthropic_version:
  "bedrock-2023-05-31"`` (https://docs.aws.amazon.com/bedrock/latest/userguide/model-parameters-claude.html);
  betas ride in the body as ``anthropic_beta`` (the anthropic SDK's Bedrock client does the same).
  Authentication: a Bedrock API key (``api_key=`` or ``AWS_BEARER_TOKEN_BEDROCK``) as a Bearer
  token, else SigV4 signing (service ``bedrock``) with botocore's signer and the AWS credential
  chain (``settings["aws_profile"]`` picks a profile).
- ``"vertex"``: ``POST {base}/projects/{project}/locations/{region}/publishers/anthropic/models/
  {model}:rawPredict`` (streaming: ``:streamRawPredict``, SSE as the Messages API sends it),
  project and region from ``settings["vertex_project"]`` / ``settings["vertex_location"]``. The
  body loses ``model`` and gains ``anthropic_version: "vertex-2023-10-16"``
  (https://docs.anthropic.com/en/api/claude-on-vertex-ai). Authentication: an OAuth access token
  (``api_key=``), else google-auth's application default credentials.

botocore and google-auth are imported only when a request goes through their door. The request
names its door as its ``host`` (``"anthropic"`` for the Claude API itself), which the encoder
checks a replayed block's against and the Client records on the answer's signed thinking
(``ProviderEcho.host``): the catalog's ``[hosts]`` says these three share signatures.
``settings["anthropic_version"]`` overrides the version a door sends.
"""

from __future__ import annotations

import base64
from collections.abc import Iterator, Mapping
from functools import partial
from typing import Any

from interlingua import EncodeError, Endpoint, HttpRequest, MissingAPIKeyError, ServerSentEvent
from interlingua.kit import (
    aws_auth,
    aws_region,
    dumps,
    event_frames,
    gcp_token,
    host_label,
    loads,
    url_segment,
    versioned_base,
)

DOORS = ("bedrock", "vertex")
BEDROCK_VERSION = "bedrock-2023-05-31"
VERTEX_VERSION = "vertex-2023-10-16"
NAME = "anthropic-messages"


def door(settings: Mapping[str, str]) -> str | None:
    """The door ``settings`` name, None for Anthropic's own API; an unknown one is refused."""
    name = settings.get("door")
    if name is None or name in DOORS:
        return name
    raise ValueError(f"{NAME} has no door {name!r}; it has {', '.join(DOORS)}")


FIRST_PARTY = "anthropic"
"""The host name of Anthropic's own API (the Claude API), as the doors' are ``bedrock`` and ``vertex``."""


def host(settings: Mapping[str, str]) -> str:
    """The host a request goes through: the door ``settings`` name, else the Claude API."""
    return door(settings) or FIRST_PARTY


def key_env(settings: Mapping[str, str]) -> tuple[str, ...] | None:
    """The variables a key comes from; None where the door authenticates otherwise."""
    return ("ANTHROPIC_API_KEY",) if door(settings) is None else None


def http_request(body: dict[str, Any], model: str, *, stream: bool, endpoint: Endpoint) -> HttpRequest:
    """``body`` is the Messages body as sent to Anthropic (``stream`` set, ``betas`` taken out into
    the ``anthropic-beta`` header of ``endpoint.headers``)."""
    settings = endpoint.settings
    if not model:
        raise EncodeError(NAME, "model", f"the {door(settings)} URL names the model; Request.model is required")
    body.pop("model", None)
    if door(settings) == "bedrock":
        return _bedrock(body, model, stream=stream, endpoint=endpoint)
    return _vertex(body, model, stream=stream, endpoint=endpoint)


# --- Amazon Bedrock ------------------------------------------------------------------------------


def _bedrock(body: dict[str, Any], model: str, *, stream: bool, endpoint: Endpoint) -> HttpRequest:
    settings = endpoint.settings
    body.pop("stream", None)  # the URL says it
    body = {"anthropic_version": settings.get("anthropic_version", BEDROCK_VERSION), **body}
    headers = {"content-type": "application/json", **endpoint.headers}
    if betas := headers.pop("anthropic-beta", None):
        body["anthropic_beta"] = [beta.strip() for beta in betas.split(",")]
    who = f"{NAME} on Bedrock"
    region = aws_region(settings, who=who)
    host = f"https://bedrock-runtime.{region}.amazonaws.com"
    base, _ = versioned_base(endpoint.base_url, host, codec=NAME, version=None)  # no version segment
    action = "invoke-with-response-stream" if stream else "invoke"
    url = f"{base}/model/{url_segment(model, codec=NAME, at='model')}/{action}"
    if stream:
        headers["accept"] = "application/vnd.amazon.eventstream"
    sign = aws_auth(headers, endpoint, service="bedrock", region=region, token_env="AWS_BEARER_TOKEN_BEDROCK", who=who)
    events = partial(bedrock_events, codec=NAME) if stream else None
    return HttpRequest("POST", url, headers, body, stream=stream, sign=sign, events=events, host="bedrock")


def bedrock_events(chunks: Iterator[bytes], *, codec: str) -> Iterator[ServerSentEvent]:
    """InvokeModelWithResponseStream's frames as the Messages API's SSE events: each ``chunk``
    frame's ``bytes`` (base64) is one Messages event; an exception frame becomes the Messages
    ``error`` event, so the stream fails the way a first-party one does."""
    for index, frame in enumerate(event_frames(chunks, codec=codec)):
        if frame.event == "chunk":
            try:
                text = base64.b64decode(loads(frame.data)["bytes"]).decode("utf-8")
                kind = loads(text)["type"]
            except (ValueError, KeyError, TypeError, UnicodeDecodeError):
                from interlingua import DecodeError

                raise DecodeError(codec, f"frames[{index}]", "a chunk frame without a Messages event") from None
            yield ServerSentEvent(data=text, event=str(kind))
        elif frame.event == "exception":
            problem = loads(frame.data)
            error = {"type": "error", "error": {"type": problem["type"], "message": problem["message"]}}
            yield ServerSentEvent(data=dumps(error), event="error")
        # other event types (none documented today) carry no Messages event


# --- Google Vertex AI ----------------------------------------------------------------------------

_VERTEX_HOSTS = {
    "global": "https://aiplatform.googleapis.com",
    "us": "https://aiplatform.us.rep.googleapis.com",
    "eu": "https://aiplatform.eu.rep.googleapis.com",
}
"""Multi-region locations have their own hosts; a region's host is ``{region}-aiplatform``."""


def _vertex(body: dict[str, Any], model: str, *, stream: bool, endpoint: Endpoint) -> HttpRequest:
    settings = endpoint.settings
    project, region = settings.get("vertex_project"), settings.get("vertex_location")
    if not project or not region:
        raise MissingAPIKeyError(f"{NAME} on Vertex AI: set settings['vertex_project'] and ['vertex_location']")
    body = {"anthropic_version": settings.get("anthropic_version", VERTEX_VERSION), **body}
    region = host_label(region, codec=NAME, at="settings.vertex_location")  # it may name the host
    host = _VERTEX_HOSTS.get(region, f"https://{region}-aiplatform.googleapis.com")
    # Vertex AI serves v1 and v1beta1; a base URL with or without one is taken
    base, version = versioned_base(endpoint.base_url, host, codec=NAME, version="v1", also=("v1beta1",))
    action = "streamRawPredict" if stream else "rawPredict"
    project = url_segment(project, codec=NAME, at="settings.vertex_project")
    model = url_segment(model, codec=NAME, at="model", safe="@")
    url = f"{base}/{version}/projects/{project}/locations/{region}/publishers/anthropic/models/{model}:{action}"
    token = endpoint.api_key or gcp_token(who=NAME)
    headers = {"content-type": "application/json", "authorization": f"Bearer {token}", **endpoint.headers}
    return HttpRequest("POST", url, headers, body, stream=stream, host="vertex")
