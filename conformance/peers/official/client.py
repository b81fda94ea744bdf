"""The official Python SDK's client (`mcp`, the version requirements.txt pins) against the
wirecheck reference peer: the handshake, every page of tools/list, prompts/list and
resources/list, and one call of `echo`, the catalogue's harmless tool (it returns its `text`
argument). Prints one JSON line of what it saw; exits 1 on any error or on an answer that is
not the one the catalogue (conformance/src/peer/catalogue.rs) implies.

    python client.py stdio WIRECHECK_BINARY [--mode auto|legacy]
    python client.py http URL [--mode auto|legacy]
    python client.py sse URL          (the 2024-11-05 HTTP+SSE transport, .../sse)

`--mode auto` (the SDK's default) probes `server/discover` first and so reaches 2026-07-28
when the peer negotiates it; `--mode legacy` forces the initialize handshake.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Awaitable, Callable
from typing import Any

import anyio
from mcp import Client, StdioServerParameters
from mcp.client import Transport
from mcp.client.sse import sse_client

# A peer that never answers must not hang the driver.
DEADLINE_SECONDS = 20
ECHO_TEXT = "hello from the Python SDK"


async def every_page(list_page: Callable[[str | None], Awaitable[Any]], key: str) -> list[Any]:
    """All items of a paginated list (the reference peer pages by two on purpose)."""
    items: list[Any] = []
    cursor: str | None = None
    while True:
        page = await list_page(cursor)
        items.extend(getattr(page, key))
        cursor = page.next_cursor
        if cursor is None:
            return items


async def exchange(server: StdioServerParameters | Transport | str, transport: str, mode: str) -> dict[str, Any]:
    # cache=None: every list goes to the peer, never to the SDK's response cache.
    async with Client(server, mode=mode, cache=None, raise_exceptions=True) as client:
        tools = await every_page(lambda c: client.list_tools(cursor=c), "tools")
        prompts = await every_page(lambda c: client.list_prompts(cursor=c), "prompts")
        resources = await every_page(lambda c: client.list_resources(cursor=c), "resources")
        names = [t.name for t in tools]
        if "echo" not in names:
            raise RuntimeError(f"no echo tool in tools/list: {names}")
        result = await client.call_tool("echo", {"text": ECHO_TEXT})
        echoed = getattr(result.content[0], "text", None) if result.content else None
        if result.is_error or echoed != ECHO_TEXT:
            raise RuntimeError(f"echo answered {result.model_dump_json()}, not its text")
        return {
            "client": "python-sdk",
            "transport": transport,
            "mode": mode,
            "protocolVersion": client.protocol_version,
            "tools": names,
            "prompts": [p.name for p in prompts],
            "resources": [str(r.uri) for r in resources],
            "echo": echoed,
        }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("transport", choices=["stdio", "http", "sse"])
    parser.add_argument("target", help="the wirecheck binary (stdio), the /mcp URL (http) or the /sse URL (sse)")
    parser.add_argument("--mode", choices=["auto", "legacy"], default="auto")
    args = parser.parse_args()
    server: StdioServerParameters | Transport | str
    if args.transport == "stdio":
        server = StdioServerParameters(command=args.target, args=["serve"])
    elif args.transport == "sse":
        server = sse_client(args.target)
    else:
        server = args.target

    async def bounded() -> dict[str, Any]:
        with anyio.fail_after(DEADLINE_SECONDS):
            return await exchange(server, args.transport, args.mode)

    try:
        seen = anyio.run(bounded)
    except BaseException as error:  # noqa: BLE001 - any failure, task groups included, is a failed run
        print(f"python-sdk {args.transport} {args.mode}: {error!r}", file=sys.stderr)
        return 1
    print(json.dumps(seen))
    return 0


if __name__ == "__main__":
    sys.exit(main())
