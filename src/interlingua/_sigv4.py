"""AWS request authentication for the codecs whose doors need it: the region, a bearer API key,
or SigV4 signing (AWS's Signature Version 4).

The signature is botocore's own (``SigV4Auth``), over the final bytes and headers of each
attempt, with credentials from botocore's credential chain (environment, shared files, a
``profile``, instance roles). The chain runs once per profile and environment, not per
signature: it builds a botocore session and may ask the instance metadata service, which cost
more than the signing itself (24 ms a signature before, 0.35 ms after, on this machine);
botocore's refreshable credentials renew themselves when read. botocore is imported on the
first signature, never with ``import interlingua``. A codec builds the signer once per request
and puts it on its ``HttpRequest.sign``; the transport calls it again on every retry (the
signature covers the time). The first lookup runs where the request is sent, on the event loop
for the async client: the metadata service answers locally, and only that first time.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from functools import partial
from typing import Any

from ._codec import Endpoint, Signer
from ._errors import MissingAPIKeyError
from ._url import host_label


def aws_region(settings: Mapping[str, str], *, who: str) -> str:
    """``settings["aws_region"]``, else ``AWS_REGION`` / ``AWS_DEFAULT_REGION`` (botocore's own
    variables); without one, MissingAPIKeyError says what to set."""
    region = settings.get("aws_region") or os.environ.get("AWS_REGION") or os.environ.get("AWS_DEFAULT_REGION")
    if not region:
        raise MissingAPIKeyError(f"{who}: no region; set settings['aws_region'] or AWS_REGION")
    return host_label(region, codec=who, at="settings.aws_region")  # it becomes part of the host


def aws_auth(
    headers: dict[str, str], endpoint: Endpoint, *, service: str, region: str, token_env: str, who: str
) -> Signer | None:
    """How a request authenticates: an API key (``endpoint.api_key``, else ``token_env``) as a
    Bearer token put in ``headers`` (None returned), else a SigV4 signer for ``service`` with the
    credential chain (``settings["aws_profile"]`` picks a profile)."""
    token = endpoint.api_key or os.environ.get(token_env)
    if token:
        headers["authorization"] = f"Bearer {token}"
        return None
    return sigv4(service, region, profile=endpoint.settings.get("aws_profile"), who=who)


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

    credentials = _credentials(profile, who or service)
    signed = AWSRequest(method=method, url=url, data=content, headers=dict(headers))
    SigV4Auth(credentials.get_frozen_credentials(), service, region).add_auth(signed)
    return dict(signed.headers.items())


_CHAIN_INPUTS = (
    "AWS_ACCESS_KEY_ID",
    "AWS_SECRET_ACCESS_KEY",
    "AWS_SESSION_TOKEN",
    "AWS_PROFILE",
    "AWS_SHARED_CREDENTIALS_FILE",
    "AWS_CONFIG_FILE",
    "AWS_ROLE_ARN",
    "AWS_WEB_IDENTITY_TOKEN_FILE",
    "AWS_CONTAINER_CREDENTIALS_FULL_URI",
    "AWS_CONTAINER_CREDENTIALS_RELATIVE_URI",
)
"""The environment variables botocore's credential chain reads: a change to one finds anew."""

_FOUND: dict[tuple[str | None, ...], Any] = {}
"""Credentials found, by profile and the chain's environment (botocore ``Credentials``)."""


def _credentials(profile: str | None, who: str) -> Any:
    key = (profile, *(os.environ.get(name) for name in _CHAIN_INPUTS))
    credentials = _FOUND.get(key)
    if credentials is None:
        from botocore.session import Session

        credentials = Session(profile=profile).get_credentials()
        if credentials is None:
            raise MissingAPIKeyError(
                f"{who}: no AWS credentials (set AWS_ACCESS_KEY_ID/AWS_SECRET_ACCESS_KEY, a profile, "
                "or a Bedrock API key in AWS_BEARER_TOKEN_BEDROCK)"
            )
        _FOUND[key] = credentials
    return credentials
