"""The official Python SDK's client (`mcp`, pinned in ../official/requirements.txt) with
its OAuth flow switched on, for `wirecheck run-client --transport http --auth` (serve
--http --judge --auth): the SDK's OAuthClientProvider over Streamable HTTP, its redirect
handler a GET that follows the authorization request to wirecheck's authorization server
(which consents at once) and its callback handler the code, state and iss read from the
redirect, headlessly. The client id is pre-registered in the token storage
("wirecheck-py-client"; wirecheck's authorization server takes any). Connects, lists tools
and calls `echo`, which the judged peer guards with a further scope, so the SDK's step-up
runs.

    python py-client.py [--step-up-refused | --wrong-iss] URL

--step-up-refused: the authorization server never grants the further scope (serve
--auth-scenario step-up-refused), so the call is expected to fail; exit 0 then.
--wrong-iss: its redirects name another issuer (serve --auth-scenario wrong-iss), so the
SDK is expected to refuse the authorization response; exit 0 then. Prints one JSON line of
what it saw; exits 1 on anything else.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any
from urllib.parse import parse_qs, urlparse

import anyio
import httpx2
from mcp import Client
from mcp.client.auth import AuthorizationCodeResult, OAuthClientProvider
from mcp.client.streamable_http import streamable_http_client
from mcp.shared.auth import OAuthClientInformationFull, OAuthClientMetadata, OAuthToken

REDIRECT = "http://127.0.0.1:1/callback"
ECHO_TEXT = "hello from the Python SDK, authorized"
DEADLINE_SECONDS = 20


class Memory:
    """Token storage in memory, the client id pre-registered."""

    def __init__(self) -> None:
        self.tokens: OAuthToken | None = None
        self.client = OAuthClientInformationFull(
            client_id="wirecheck-py-client",
            redirect_uris=[REDIRECT],
            token_endpoint_auth_method="none",
            grant_types=["authorization_code"],
            response_types=["code"],
        )

    async def get_tokens(self) -> OAuthToken | None:
        return self.tokens

    async def set_tokens(self, tokens: OAuthToken) -> None:
        self.tokens = tokens

    async def get_client_info(self) -> OAuthClientInformationFull | None:
        return self.client

    async def set_client_info(self, client_info: OAuthClientInformationFull) -> None:
        self.client = client_info


class Browser:
    """The user agent: the authorization server redirects at once."""

    def __init__(self) -> None:
        self.back: dict[str, str] = {}
        self.authorizations = 0

    async def redirect(self, url: str) -> None:
        self.authorizations += 1
        async with httpx2.AsyncClient() as http:
            answer = await http.get(url)
        location = answer.headers.get("location")
        if not location:
            raise RuntimeError(f"the authorization request got {answer.status_code} and no redirect")
        self.back = {k: v[0] for k, v in parse_qs(urlparse(location).query).items()}
        if "error" in self.back:
            raise RuntimeError(f"the authorization server refused: {self.back['error']}")

    async def callback(self) -> AuthorizationCodeResult:
        return AuthorizationCodeResult(code=self.back["code"], state=self.back.get("state"), iss=self.back.get("iss"))


async def exchange(url: str, refused: bool) -> dict[str, Any]:
    browser = Browser()
    provider = OAuthClientProvider(
        server_url=url,
        client_metadata=OAuthClientMetadata(
            client_name="wirecheck Python SDK OAuth client",
            redirect_uris=[REDIRECT],
            grant_types=["authorization_code"],
            response_types=["code"],
            token_endpoint_auth_method="none",
        ),
        storage=Memory(),
        redirect_handler=browser.redirect,
        callback_handler=browser.callback,
    )
    http = httpx2.AsyncClient(auth=provider)
    async with Client(streamable_http_client(url, http_client=http), cache=None, raise_exceptions=True) as client:
        tools = [t.name for t in (await client.list_tools()).tools]
        echo = refusal = None
        try:
            result = await client.call_tool("echo", {"text": ECHO_TEXT})
            echo = getattr(result.content[0], "text", None) if result.content else None
            if result.is_error or echo != ECHO_TEXT:
                raise RuntimeError(f"echo answered {result.model_dump_json()}")
        except Exception as error:  # noqa: BLE001 - the refusal expected under --step-up-refused
            if not refused:
                raise
            refusal = repr(error)
        if refused and refusal is None:
            raise RuntimeError("the call succeeded though the scope was never granted")
        return {"client": "python-sdk-oauth", "tools": tools, "echo": echo, "refusal": refusal,
                "authorizations": browser.authorizations}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--step-up-refused", action="store_true")
    parser.add_argument("--wrong-iss", action="store_true")
    parser.add_argument("url")
    args = parser.parse_args()

    async def bounded() -> dict[str, Any]:
        with anyio.fail_after(DEADLINE_SECONDS):
            return await exchange(args.url, args.step_up_refused)

    try:
        seen = anyio.run(bounded)
    except BaseException as error:  # noqa: BLE001 - any failure is a failed run
        if args.wrong_iss and "iss mismatch" in repr(error):
            print(json.dumps({"client": "python-sdk-oauth", "refusal": repr(error)}))
            return 0
        print(f"python-sdk oauth: {error!r}", file=sys.stderr)
        return 1
    print(json.dumps(seen))
    return 0


if __name__ == "__main__":
    sys.exit(main())
