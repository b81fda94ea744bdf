"""A protected MCP server built on the official Python SDK (`mcp`, pinned in
../official/requirements.txt) with its own authorization switched on, configured against
wirecheck's authorization server, for `wirecheck run --auth` to judge.

    python py-server.py --port PORT --issuer http://127.0.0.1:AS_PORT

Streamable HTTP at http://127.0.0.1:PORT/mcp, bound to 127.0.0.1 only. What authorization
does here is the SDK's: `MCPServer` (mcp 2's FastMCP) given `token_verifier=` and
`auth=AuthSettings(issuer_url, resource_server_url, required_scopes=["mcp"])` puts its
`RequireAuthMiddleware` (401 / 403 and their `WWW-Authenticate`) in front of /mcp and
serves the Protected Resource Metadata itself. The verifier is ours (the SDK ships none
for JWTs): PyJWT (with cryptography, both pinned by hash beside the SDK) checks the
signature against the issuer's JWKS, `iss`, `aud` (this server's URL) and `exp`, and
answers None for any token it refuses, as the SDK's TokenVerifier protocol asks.
"""

import argparse
import logging

import jwt
from mcp.server.auth.provider import AccessToken, TokenVerifier
from mcp.server.auth.settings import AuthSettings
from mcp.server.mcpserver import MCPServer


class JwksTokenVerifier(TokenVerifier):
    """Verifies the issuer's JWT access tokens (ES256) against its JWKS."""

    def __init__(self, issuer: str, audience: str):
        self.issuer = issuer
        self.audience = audience
        self.jwks = jwt.PyJWKClient(f"{issuer}/jwks")

    async def verify_token(self, token: str) -> AccessToken | None:
        try:
            key = self.jwks.get_signing_key_from_jwt(token)
            claims = jwt.decode(
                token,
                key,
                algorithms=["ES256"],
                issuer=self.issuer,
                audience=self.audience,
                options={"require": ["exp", "iss", "aud"]},
            )
        except jwt.PyJWTError as error:
            logging.getLogger("py-server").info("token refused: %s", error)
            return None
        scope = claims.get("scope")
        return AccessToken(
            token=token,
            client_id=str(claims.get("client_id") or claims.get("sub") or ""),
            scopes=scope.split() if isinstance(scope, str) else [],
            expires_at=claims["exp"],
            # jwt.decode checked that `aud` names this server: the resource it was issued for
            resource=self.audience,
            subject=claims.get("sub"),
            claims=claims,
        )


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--issuer", required=True)
    args = parser.parse_args()
    issuer = args.issuer.rstrip("/")
    resource = f"http://127.0.0.1:{args.port}/mcp"

    server = MCPServer(
        name="wirecheck-py-auth-peer",
        token_verifier=JwksTokenVerifier(issuer, resource),
        auth=AuthSettings(
            issuer_url=issuer,
            resource_server_url=resource,
            required_scopes=["mcp"],
            # The verifier checks `aud` itself; the SDK's own check is on as well.
            validate_token_resource=True,
        ),
        log_level="WARNING",
    )

    @server.tool()
    def hello() -> str:
        """Says hello"""
        return "hello"

    server.run(transport="streamable-http", host="127.0.0.1", port=args.port)


if __name__ == "__main__":
    main()
