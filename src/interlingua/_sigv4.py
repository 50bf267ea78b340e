"""SigV4 request signing (AWS's Signature Version 4), for the codecs whose doors need it.

The signature is botocore's own (``SigV4Auth``), over the final bytes and headers of each
attempt, with credentials from botocore's credential chain (environment, shared files, a
``profile``, instance roles). botocore is imported on the first signature, never with
``import interlingua``. A codec builds the signer once per request and puts it on its
``HttpRequest.sign``; the transport calls it again on every retry (the signature covers the time).
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import partial

from ._codec import Signer
from ._errors import MissingAPIKeyError


def sigv4(service: str, region: str, *, profile: str | None = None, who: str = "") -> Signer:
    """A signer for ``service`` (``bedrock``) in ``region``; ``who`` names the caller in errors."""
    return partial(_sign, service=service, region=region, profile=profile, who=who)


def _sign(
    method: str,
    url: str,
    headers: Mapping[str, str],
    content: bytes,
    *,
    service: str,
    region: str,
    profile: str | None,
    who: str,
) -> dict[str, str]:
    from botocore.auth import SigV4Auth
    from botocore.awsrequest import AWSRequest
    from botocore.session import Session

    credentials = Session(profile=profile).get_credentials()
    if credentials is None:
        raise MissingAPIKeyError(
            f"{who or service}: no AWS credentials (set AWS_ACCESS_KEY_ID/AWS_SECRET_ACCESS_KEY, a profile, "
            "or a Bedrock API key in AWS_BEARER_TOKEN_BEDROCK)"
        )
    signed = AWSRequest(method=method, url=url, data=content, headers=dict(headers))
    SigV4Auth(credentials.get_frozen_credentials(), service, region).add_auth(signed)
    return dict(signed.headers.items())
