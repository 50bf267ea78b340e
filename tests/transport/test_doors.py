"""The cloud doors, end to end through a real local server: Claude on Bedrock (SigV4 signed, or a
Bedrock API key; streams in binary event-stream frames) and on Vertex AI, Gemini on Vertex AI
(its token from google-auth's own credentials, refreshed against a local token endpoint), and
Azure OpenAI for both OpenAI wires.

The signature is checked the way AWS checks it: the server recomputes it with botocore's own
SigV4 signer from the bytes and headers it received, and compares."""

from __future__ import annotations

import asyncio
import base64
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import interlingua as il
from interlingua.kit import event_frames, render_frames
from interlingua.testing import load_body

from .vendor_server import Answer, Fault, Received, VendorServer

FIXTURES = Path(__file__).parents[2] / "fixtures"
REGION = "us-east-1"
KEY_ID, SECRET = "AKIDEXAMPLE", "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY"
CLAUDE = "us.anthropic.claude-sonnet-4-20250514-v1:0"

pytest.importorskip("botocore")


@pytest.fixture
def aws(monkeypatch: pytest.MonkeyPatch) -> None:
    """Static AWS credentials from the environment, and nothing else that could authenticate."""
    for name in ("ANTHROPIC_API_KEY", "AWS_BEARER_TOKEN_BEDROCK", "AWS_PROFILE", "AWS_SESSION_TOKEN"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("AWS_ACCESS_KEY_ID", KEY_ID)
    monkeypatch.setenv("AWS_SECRET_ACCESS_KEY", SECRET)
    monkeypatch.setenv("AWS_CONFIG_FILE", "/nonexistent")
    monkeypatch.setenv("AWS_SHARED_CREDENTIALS_FILE", "/nonexistent")


def _request(model: str = CLAUDE) -> il.Request:
    return il.Request(model=model, max_tokens=64, messages=[il.Message(role="user", parts=[il.Text("Hello")])])


def _bedrock(vendor: VendorServer, **kw: Any) -> il.Client:
    return il.Client(
        "anthropic-messages", base_url=vendor.url, settings={"door": "bedrock", "aws_region": REGION}, **kw
    )


def _signature_holds(vendor: VendorServer, received: Received) -> bool:
    """Recompute the request's SigV4 signature from what arrived, with botocore's signer."""
    from botocore.auth import SigV4Auth
    from botocore.awsrequest import AWSRequest
    from botocore.credentials import Credentials

    authorization = received.headers["authorization"]
    assert authorization.startswith("AWS4-HMAC-SHA256 ")
    fields = dict(part.strip().split("=", 1) for part in authorization.split(" ", 1)[1].split(","))
    signed = fields["SignedHeaders"].split(";")
    assert fields["Credential"].startswith(f"{KEY_ID}/") and fields["Credential"].endswith(
        f"/{REGION}/bedrock/aws4_request"
    )
    request = AWSRequest(
        method=received.method,
        url=vendor.url + received.path,
        data=received.raw,
        headers={name: received.headers[name] for name in signed},
    )
    request.context["timestamp"] = received.headers["x-amz-date"]
    auth = SigV4Auth(Credentials(KEY_ID, SECRET), "bedrock", REGION)
    expected = auth.signature(auth.string_to_sign(request, auth.canonical_request(request)), request)
    return bool(expected == fields["Signature"])


def _chunked(sse: bytes) -> bytes:
    """A Messages SSE stream as Bedrock's InvokeModelWithResponseStream sends it."""
    events = il.parse_sse([sse])
    return b"".join(
        render_frames(
            ("chunk", json.dumps({"bytes": base64.b64encode(event.data.encode()).decode()}).encode())
            for event in events
        )
    )


# --- Claude on Amazon Bedrock ----------------------------------------------------------------------


def test_bedrock_send_is_signed_and_carries_the_bedrock_body(vendor: VendorServer, aws: None) -> None:
    answer = load_body(FIXTURES / "anthropic-messages/response/thinking-then-tool-use.json")
    vendor.answer = Answer(json=answer)
    with _bedrock(vendor) as client:
        response = client.send(_request())
    decoded = il.get_codec("anthropic-messages").decode_response(answer)
    # the door records itself on the signed thinking it served (ProviderEcho.host), nothing else changes
    signed = response.message.parts[0].echo("anthropic")
    assert signed is not None and signed.host == "bedrock" and decoded.message.parts[0].echo("anthropic") != signed
    unhosted = [echo.model_copy(update={"host": None}) for echo in response.message.parts[0].provider_echoes]
    assert response.message.parts[0].model_copy(update={"provider_echoes": unhosted}) == decoded.message.parts[0]
    assert response.message.parts[1:] == decoded.message.parts[1:]
    (received,) = vendor.received
    assert received.path == "/model/us.anthropic.claude-sonnet-4-20250514-v1%3A0/invoke"
    assert received.body == {
        "anthropic_version": "bedrock-2023-05-31",
        "max_tokens": 64,
        "messages": [{"role": "user", "content": [{"type": "text", "text": "Hello"}]}],
    }
    assert "x-api-key" not in received.headers and "anthropic-version" not in received.headers
    assert _signature_holds(vendor, received)


def test_a_signature_over_other_bytes_does_not_hold(vendor: VendorServer, aws: None) -> None:
    """The check above can fail: the same headers over a changed body give another signature."""
    vendor.answer = Answer(json=load_body(FIXTURES / "anthropic-messages/response/max-tokens-stop.json"))
    with _bedrock(vendor) as client:
        client.send(_request())
    (received,) = vendor.received
    tampered = Received(received.method, received.path, received.headers, received.body, received.raw + b" ")
    assert not _signature_holds(vendor, tampered)


def test_each_retry_is_signed_afresh(vendor: VendorServer, aws: None) -> None:
    vendor.answer = Answer(json=load_body(FIXTURES / "anthropic-messages/response/max-tokens-stop.json"))
    vendor.faults.append(Fault("status", status=500, headers={"retry-after": "0"}))
    with _bedrock(vendor) as client:
        client.send(_request())
    assert len(vendor.received) == 2
    assert all(_signature_holds(vendor, received) for received in vendor.received)


def test_the_credential_chain_runs_once_per_environment(aws: None, monkeypatch: pytest.MonkeyPatch) -> None:
    """botocore's chain (a session, maybe the metadata service) runs on the first signature and
    not on each one after; a changed key in the environment is found anew."""
    from botocore.session import Session

    from interlingua import _sigv4

    monkeypatch.setattr(_sigv4, "_FOUND", {})
    lookups: list[str | None] = []
    original = Session.get_credentials

    def counted(self: Session) -> Any:
        lookups.append(self.profile)
        return original(self)

    monkeypatch.setattr(Session, "get_credentials", counted)
    sign = _sigv4.sigv4("bedrock", REGION)
    url = f"https://bedrock-runtime.{REGION}.amazonaws.com/model/m/converse"
    first = sign("POST", url, {"content-type": "application/json"}, b"{}")
    sign("POST", url, {"content-type": "application/json"}, b"{}")
    assert len(lookups) == 1 and f"Credential={KEY_ID}/" in first["Authorization"]
    monkeypatch.setenv("AWS_ACCESS_KEY_ID", "AKIAOTHERKEY")
    assert "Credential=AKIAOTHERKEY/" in sign("POST", url, {}, b"{}")["Authorization"]
    assert len(lookups) == 2


def test_bedrock_api_key_is_a_bearer_token_and_betas_ride_in_the_body(
    vendor: VendorServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("AWS_BEARER_TOKEN_BEDROCK", "bedrock-key")
    vendor.answer = Answer(json=load_body(FIXTURES / "anthropic-messages/response/max-tokens-stop.json"))
    request = _request().model_copy(update={"provider_options": {"anthropic": {"betas": ["context-1m-2025-08-07"]}}})
    with _bedrock(vendor) as client:
        client.send(request)
    (received,) = vendor.received
    assert received.headers["authorization"] == "Bearer bedrock-key"
    assert "x-amz-date" not in received.headers and "anthropic-beta" not in received.headers
    assert received.body["anthropic_beta"] == ["context-1m-2025-08-07"]


def test_bedrock_stream_reads_event_stream_frames(vendor: VendorServer, aws: None) -> None:
    sse = (FIXTURES / "anthropic-messages/stream/thinking-signature-delta.sse").read_bytes()
    vendor.answer = Answer(sse=_chunked(sse), chunk=50)  # frames split across network chunks
    codec = il.get_codec("anthropic-messages")
    with _bedrock(vendor) as client, client.stream(_request()) as events:
        got = list(events)
    assert got == list(codec.decode_stream(il.parse_sse([sse])))
    (received,) = vendor.received
    assert received.path.endswith("/invoke-with-response-stream") and "stream" not in received.body
    assert _signature_holds(vendor, received)


def test_bedrock_stream_through_the_async_client(vendor: VendorServer, aws: None) -> None:
    sse = (FIXTURES / "anthropic-messages/stream/tool-use-empty-input.sse").read_bytes()
    vendor.answer = Answer(sse=_chunked(sse))

    async def go() -> list[il.StreamEvent]:
        settings = {"door": "bedrock", "aws_region": REGION}
        client = il.AsyncClient("anthropic-messages", base_url=vendor.url, settings=settings)
        async with client, client.stream(_request()) as events:
            return [event async for event in events]

    got = asyncio.run(go())
    assert _signature_holds(vendor, vendor.received[0])
    assert il.accumulate(got) == il.accumulate(il.get_codec("anthropic-messages").decode_stream(il.parse_sse([sse])))


def test_an_exception_frame_fails_the_stream_with_the_partial_answer(vendor: VendorServer, aws: None) -> None:
    sse = (FIXTURES / "anthropic-messages/stream/thinking-signature-delta.sse").read_bytes()
    frames = _chunked(sse)
    head = b"".join(list(_frames_of(frames))[:3])
    vendor.answer = Answer(sse=head + _exception_frame("throttlingException", "Too many tokens, please wait."))
    with _bedrock(vendor) as client, pytest.raises(il.StreamError) as caught, client.stream(_request()) as events:
        list(events)
    assert caught.value.error is not None and caught.value.error.message == "Too many tokens, please wait."
    assert caught.value.error.type == "throttlingException"
    assert caught.value.partial is not None


def test_a_broken_frame_is_a_stream_decode_error(vendor: VendorServer, aws: None) -> None:
    frames = _chunked((FIXTURES / "anthropic-messages/stream/thinking-signature-delta.sse").read_bytes())
    vendor.answer = Answer(sse=frames[:40] + b"\x00" * 4 + frames[44:])  # the first frame's checksum fails
    with _bedrock(vendor) as client, pytest.raises(il.StreamDecodeError) as caught, client.stream(_request()) as events:
        list(events)
    assert caught.value.path == "frames[0]"


def test_bedrock_error_keeps_the_message_and_the_amazon_error_type(vendor: VendorServer, aws: None) -> None:
    vendor.faults.append(
        Fault(
            "status",
            status=400,
            headers={"x-amzn-errortype": "ValidationException:http://internal.amazon.com/coral/com.amazon.bedrock/"},
            body=b'{"message":"The provided model identifier is invalid."}',
        )
    )
    with _bedrock(vendor) as client, pytest.raises(il.ProviderError) as caught:
        client.send(_request())
    assert (caught.value.status, caught.value.type) == (400, "ValidationException")
    assert caught.value.message == "The provided model identifier is invalid."


def test_bedrock_without_credentials_or_region_says_what_is_missing(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY", "AWS_BEARER_TOKEN_BEDROCK", "AWS_REGION", "AWS_PROFILE"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.delenv("AWS_DEFAULT_REGION", raising=False)
    monkeypatch.setenv("AWS_CONFIG_FILE", "/nonexistent")
    monkeypatch.setenv("AWS_SHARED_CREDENTIALS_FILE", "/nonexistent")
    monkeypatch.setenv("AWS_EC2_METADATA_DISABLED", "true")
    with (
        il.Client("anthropic-messages", settings={"door": "bedrock"}) as client,
        pytest.raises(il.MissingAPIKeyError, match="region"),
    ):
        client.send(_request())
    with (
        il.Client(
            "anthropic-messages", base_url="http://127.0.0.1:9", settings={"door": "bedrock", "aws_region": REGION}
        ) as client,
        pytest.raises(il.MissingAPIKeyError, match="AWS credentials"),
    ):
        client.send(_request())


def test_an_unknown_door_is_refused_when_the_client_is_made() -> None:
    with pytest.raises(ValueError, match="no door 'azure'"):
        il.Client("anthropic-messages", settings={"door": "azure"})


# --- Claude and Gemini on Vertex AI ------------------------------------------------------------------


def test_vertex_claude_body_url_and_sse_stream(vendor: VendorServer, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("ANTHROPIC_API_KEY", raising=False)
    sse = (FIXTURES / "anthropic-messages/stream/ping-between-deltas.sse").read_bytes()
    vendor.answer = Answer(sse=sse)
    settings = {"door": "vertex", "vertex_project": "proj", "vertex_location": "us-east5"}
    client = il.Client("anthropic-messages", api_key="ya29.token", base_url=vendor.url, settings=settings)
    with client, client.stream(_request("claude-sonnet-4@20250514")) as events:
        got = list(events)
    assert got == list(il.get_codec("anthropic-messages").decode_stream(il.parse_sse([sse])))
    (received,) = vendor.received
    assert (  # a base URL without Vertex AI's version segment gets v1 (the SDK's default base ends in it)
        received.path
        == "/v1/projects/proj/locations/us-east5/publishers/anthropic/models/claude-sonnet-4@20250514:streamRawPredict"
    )
    assert received.headers["authorization"] == "Bearer ya29.token"
    assert received.body["anthropic_version"] == "vertex-2023-10-16" and received.body["stream"] is True
    assert "model" not in received.body


@pytest.mark.parametrize(
    ("wire", "model", "answer", "path"),
    [
        (
            "gemini",
            "gemini-2.5-flash",
            "gemini/response/image-output.json",
            "/v1/projects/proj/locations/us-central1/publishers/google/models/gemini-2.5-flash:generateContent",
        ),
        (
            "anthropic-messages",
            "claude-sonnet-4@20250514",
            "anthropic-messages/response/refusal.json",
            "/v1/projects/proj/locations/us-central1/publishers/anthropic/models/claude-sonnet-4@20250514:rawPredict",
        ),
    ],
)
def test_vertex_doors_take_their_token_from_google_auth(
    vendor: VendorServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, wire: str, model: str, answer: str, path: str
) -> None:
    """google-auth's own refresh runs against a local token endpoint (a service-account file
    naming it), and the token it returns is what reaches Vertex AI, through either door; the
    credentials are looked up once for both."""
    pytest.importorskip("google.auth")
    from interlingua import _gcp_auth

    tokens = VendorServer()
    try:
        tokens.answer = Answer(
            json={"access_token": "ya29.from-google-auth", "expires_in": 3600, "token_type": "Bearer"}
        )
        info = {  # a service account of its own: google-auth signs its JWT grant with this key
            "type": "service_account",
            "project_id": "proj",
            "private_key_id": "1",
            "private_key": _rsa_key(),
            "client_email": "tester@proj.iam.gserviceaccount.com",
            "client_id": "1",
            "token_uri": f"{tokens.url}/token",
        }
        (tmp_path / "adc.json").write_text(json.dumps(info))
        monkeypatch.setenv("GOOGLE_APPLICATION_CREDENTIALS", str(tmp_path / "adc.json"))
        for name in ("GEMINI_API_KEY", "GOOGLE_API_KEY", "ANTHROPIC_API_KEY"):
            monkeypatch.delenv(name, raising=False)
        monkeypatch.setattr(_gcp_auth, "_CREDENTIALS", [])
        vendor.answer = Answer(json=load_body(FIXTURES / answer))
        settings = {"door": "vertex", "vertex_project": "proj", "vertex_location": "us-central1"}
        with il.Client(wire, base_url=vendor.url, settings=settings) as client:
            client.send(_request(model))
            client.send(_request(model))
        assert [r.headers["authorization"] for r in vendor.received] == ["Bearer ya29.from-google-auth"] * 2
        assert {r.path for r in vendor.received} == {path}
        assert [r.path for r in tokens.received] == ["/token"]  # fetched once, reused while valid
    finally:
        tokens.close()


def _rsa_key() -> str:
    crypto = pytest.importorskip("cryptography.hazmat.primitives.asymmetric.rsa")
    from cryptography.hazmat.primitives import serialization

    key = crypto.generate_private_key(public_exponent=65537, key_size=2048)
    pem = key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption())
    return pem.decode()


# --- Azure OpenAI ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("wire", "answer", "path"),
    [
        (
            "openai-chat",
            "openai-chat/response/{}",
            "/openai/deployments/prod-4o/chat/completions?api-version=2024-10-21",
        ),
        ("openai-responses", "openai-responses/response/{}", "/openai/responses?api-version=2024-10-21"),
    ],
)
def test_azure_openai_url_key_and_version(
    wire: str, answer: str, path: str, vendor: VendorServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    monkeypatch.setenv("AZURE_OPENAI_API_KEY", "azure-key")
    name = sorted(p.name for p in (FIXTURES / answer.format("")).glob("*.json") if not p.name.endswith(".ir.json"))[0]
    vendor.answer = Answer(json=json.loads((FIXTURES / answer.format(name)).read_text()))
    settings = {"door": "azure", "api_version": "2024-10-21", "azure_deployment": "prod-4o"}
    with il.Client(wire, base_url=vendor.url, settings=settings) as client:
        client.send(_request("gpt-4o"))
    (received,) = vendor.received
    assert received.path == path
    assert received.headers["api-key"] == "azure-key" and "authorization" not in received.headers
    assert received.body["model"] == "gpt-4o"


def test_azure_needs_its_own_key_and_a_version(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "openai-key")  # not Azure's: never sent there
    monkeypatch.delenv("AZURE_OPENAI_API_KEY", raising=False)
    with pytest.raises(il.MissingAPIKeyError, match="AZURE_OPENAI_API_KEY"):
        il.Client("openai-chat", settings={"door": "azure"})
    monkeypatch.delenv("OPENAI_API_VERSION", raising=False)
    client = il.Client("openai-chat", api_key="k", base_url="http://127.0.0.1:9", settings={"door": "azure"})
    with client, pytest.raises(il.MissingAPIKeyError, match="API version"):
        client.send(_request("gpt-4o"))


# --- the framing itself --------------------------------------------------------------------------------


def _frames_of(data: bytes) -> Iterator[bytes]:
    """Split concatenated frames by their length prefix."""
    import struct

    while data:
        (total,) = struct.unpack(">I", data[:4])
        yield data[:total]
        data = data[total:]


def _exception_frame(name: str, message: str) -> bytes:
    import struct
    import zlib

    def header(key: str, value: str) -> bytes:
        raw_key, raw_value = key.encode(), value.encode()
        return struct.pack(">B", len(raw_key)) + raw_key + struct.pack(">BH", 7, len(raw_value)) + raw_value

    headers = header(":exception-type", name) + header(":message-type", "exception")
    payload = json.dumps({"message": message}).encode()
    prelude = struct.pack(">II", 12 + len(headers) + len(payload) + 4, len(headers))
    prelude += struct.pack(">I", zlib.crc32(prelude))
    body = prelude + headers + payload
    return body + struct.pack(">I", zlib.crc32(body))


def test_frames_written_here_parse_back_with_botocore() -> None:
    pairs = [("chunk", b'{"bytes":"e30="}'), ("metadata", json.dumps({"é": 1}).encode())]
    frames = b"".join(render_frames(pairs))
    split = [frames[i : i + 7] for i in range(0, len(frames), 7)]
    assert [(e.event, e.data.encode()) for e in event_frames(split, codec="t")] == pairs
    (problem,) = event_frames([_exception_frame("validationException", "bad")], codec="t")
    assert (problem.event, json.loads(problem.data)) == ("exception", {"type": "validationException", "message": "bad"})
    with pytest.raises(il.DecodeError, match="ended inside a frame"):
        list(event_frames([frames[:-3]], codec="t"))


def test_the_recorded_bedrock_stream_frames_parse(tmp_path: Path) -> None:
    from interlingua.testing import real_fixtures_dir, skip_without_corpus

    skip_without_corpus()
    raw = (real_fixtures_dir() / "bedrock-converse/stream/tool-use-stream.eventstream.bin").read_bytes()
    decoded = [
        json.loads(line)
        for line in (real_fixtures_dir() / "bedrock-converse/stream/tool-use-stream.eventstream.jsonl")
        .read_text()
        .splitlines()
        if line.strip()
    ]
    events = list(event_frames([raw], codec="t"))
    assert len(events) == len(decoded)
    assert [(e.event, json.loads(e.data)) for e in events] == [
        (d["headers"][":event-type"], d["payload"]) for d in decoded
    ]


# --- Bedrock Converse through the transport ------------------------------------------------------------


hosts = {"gemini": "vertex", "openai-chat": "azure", "openai-responses": "azure"}


def _bound_echoes(response: il.Response) -> list[il.ProviderEcho]:
    """The echoes bound to a model (signed reasoning, encrypted items): those a door records itself on."""
    return [echo for part in response.message.parts for echo in part.provider_echoes if echo.model is not None]


def _without(part: il.ContentPart, field: str) -> il.ContentPart:
    """``part`` with ``field`` (``host``, ``model``) of each of its echoes unset."""
    echoes = [echo.model_copy(update={field: None}) for echo in part.provider_echoes]
    return part.model_copy(update={"provider_echoes": echoes})


def _unhosted(response: il.Response) -> il.Response:
    """``response`` with no echo's host recorded."""
    parts = [_without(part, "host") for part in response.message.parts]
    return response.model_copy(update={"message": response.message.model_copy(update={"parts": parts})})


def test_converse_send_and_stream_are_signed_and_read(vendor: VendorServer, aws: None) -> None:
    pytest.importorskip("interlingua_bedrock")
    answer = load_body(FIXTURES / "bedrock-converse/response/signed-reasoning-then-tool-use.json")
    vendor.answer = Answer(json=answer)
    settings = {"aws_region": REGION}
    with il.Client("bedrock-converse", base_url=vendor.url, settings=settings) as client:
        response = client.send(_request())
    decoded = il.get_codec("bedrock-converse").decode_response(answer)
    # Converse answers name no model: the signed blocks are bound to the model the URL named and
    # record the host, as the anthropic-messages Bedrock door records its own (issue 45 item 2)
    signed = [part.echo("bedrock") for part in response.message.parts[:2]]
    assert [(echo.model, echo.host) for echo in signed if echo is not None] == [(CLAUDE, "bedrock")] * 2
    assert [(echo.model, echo.host) for echo in signed if echo is not None] != [
        (echo.model, echo.host) for part in decoded.message.parts[:2] if (echo := part.echo("bedrock")) is not None
    ]
    unbound = [_without(part, "model") for part in _unhosted(response).message.parts]
    assert response.message.parts[2:] == decoded.message.parts[2:] and unbound == decoded.message.parts
    (sent,) = vendor.received
    assert sent.path == "/model/us.anthropic.claude-sonnet-4-20250514-v1%3A0/converse"
    assert sent.body["messages"] == [{"role": "user", "content": [{"text": "Hello"}]}]
    assert _signature_holds(vendor, sent)

    frames = b"".join(
        render_frames(
            [
                ("messageStart", b'{"role":"assistant"}'),
                ("contentBlockDelta", b'{"contentBlockIndex":0,"delta":{"text":"Hi there"}}'),
                ("contentBlockStop", b'{"contentBlockIndex":0}'),
                ("messageStop", b'{"stopReason":"end_turn"}'),
                ("metadata", b'{"usage":{"inputTokens":5,"outputTokens":2,"totalTokens":7},"metrics":{"latencyMs":9}}'),
            ]
        )
    )
    vendor.answer = Answer(sse=frames, chunk=17)
    with il.Client("bedrock-converse", base_url=vendor.url, settings=settings) as client:
        streamed = client.stream(_request()).response()
    assert streamed.message.parts == [il.Text("Hi there")] and streamed.usage.output_tokens == 2
    assert vendor.received[-1].path.endswith("/converse-stream") and _signature_holds(vendor, vendor.received[-1])


@pytest.mark.parametrize(
    ("wire", "settings", "path", "stream_file"),
    [
        (
            "gemini",
            {"door": "vertex", "vertex_project": "proj", "vertex_location": "us-central1"},
            "/v1/projects/proj/locations/us-central1/publishers/google/models/gemini-2.5-flash:streamGenerateContent?alt=sse",
            "gemini/stream",
        ),
        (
            "openai-chat",
            {"door": "azure", "api_version": "2024-10-21", "azure_deployment": "prod-4o"},
            "/openai/deployments/prod-4o/chat/completions?api-version=2024-10-21",
            "openai-chat/stream",
        ),
        (
            "openai-responses",
            {"door": "azure", "api_version": "2024-10-21"},
            "/openai/responses?api-version=2024-10-21",
            "openai-responses/stream",
        ),
    ],
)
def test_vertex_and_azure_doors_stream(
    wire: str, settings: dict[str, str], path: str, stream_file: str, vendor: VendorServer
) -> None:
    sse = sorted((FIXTURES / stream_file).glob("*.sse"))[0].read_bytes()
    vendor.answer = Answer(sse=sse)
    model = "gemini-2.5-flash" if wire == "gemini" else "gpt-4o"
    with il.Client(wire, api_key="door-key", base_url=vendor.url, settings=settings) as client:
        streamed = client.stream(_request(model)).response()
    # the streamed answer's signed blocks record the door (as a sent one's do), nothing else changes
    assert _unhosted(streamed) == il.accumulate(il.get_codec(wire).decode_stream(il.parse_sse([sse])))
    assert {echo.host for echo in _bound_echoes(streamed)} == ({hosts[wire]} if _bound_echoes(streamed) else set())
    (received,) = vendor.received
    assert received.path == path


# --- the door's host reaches the encode ---------------------------------------------------------------

VERTEX = {"door": "vertex", "vertex_project": "proj", "vertex_location": "us-central1"}


def _signed_history(wire: str, path: str, made: str) -> tuple[il.Request, str]:
    """A recorded answer, made through ``made`` (as a Client there records it), its calls answered."""
    from interlingua._binding import hosted

    answer = il.get_codec(wire).decode_response(load_body(FIXTURES / path))
    message = hosted(answer.message, made)
    calls = [part for part in message.parts if isinstance(part, il.ToolUse)]
    results = [il.ToolResult(tool_use_id=call.id, name=call.name, content="18C") for call in calls]
    messages = [il.Message.user("Weather in Paris?"), message, il.Message(role="tool", parts=results)]
    echoes = [e.data for part in message.parts for e in part.provider_echoes if e.model is not None]
    signature = next(data.get("signature") or data["thoughtSignature"] for data in echoes if len(data))
    return il.Request(model=answer.model, max_tokens=64, messages=messages), signature


def test_a_client_encodes_for_its_doors_host(vendor: VendorServer, aws: None) -> None:
    """Gemini through Vertex AI withholds a thoughtSignature the Gemini API made (a 400 "Corrupted
    thought signature." there), reported on the answer; through the Gemini API it is sent. Claude
    through Bedrock sends a block the Claude API signed (the vendor says the two share)."""
    gemini = "gemini/response/thought-then-signed-function-call.json"
    request, signature = _signed_history("gemini", gemini, "gemini-api")
    vendor.answer = Answer(json=load_body(FIXTURES / gemini))
    with il.Client("gemini", api_key="door-key", base_url=vendor.url, settings=VERTEX) as client:
        answer = client.send(request)
    with il.Client("gemini", api_key="door-key", base_url=vendor.url) as client:
        client.send(request)
    through_vertex, through_api = (json.dumps(received.body) for received in vendor.received)
    assert signature not in through_vertex and signature in through_api
    (withheld,) = [w for w in answer.warnings if w.side == "request" and "made through gemini-api" in w.message]
    assert isinstance(withheld, il.LossyEncode) and "refused through vertex" in withheld.message

    vendor.received.clear()
    claude = "anthropic-messages/response/thinking-then-tool-use.json"
    request, signature = _signed_history("anthropic-messages", claude, "anthropic")
    vendor.answer = Answer(json=load_body(FIXTURES / claude))
    with _bedrock(vendor) as client:
        answer = client.send(request)
    (received,) = vendor.received
    assert signature in json.dumps(received.body) and not [w for w in answer.warnings if w.side == "request"]
