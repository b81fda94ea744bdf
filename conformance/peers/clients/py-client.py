"""The official Python SDK's client (`mcp`, pinned by ../official/requirements.txt) as a client
under test for `wirecheck run-client`: it declares roots and sampling (fixed harmless answers),
sets the log level, calls the reference peer's `echo` with a progress callback, calls `echo` four
more times (the error-shapes scenario answers those with errors, which it tolerates) and lists
tools again. The target is its last argument:

    python py-client.py stdio "WIRECHECK serve --judge --report FILE ..."
    python py-client.py http URL
    python py-client.py --mode 2026-07-28 http URL

`--mode` is the SDK's connect mode: `legacy` (the default here: the initialize handshake) or
a protocol version to adopt without a handshake. Under 2026-07-28, which has no
`logging/setLevel`, the level rides on every request's `_meta` instead (the SDK's
`log_level`, server/utilities/logging of that revision), and roots and sampling (requests
from the server) are declared but never asked for: that revision has none outside the
input-required flow.
"""

from __future__ import annotations

import json
import sys
from typing import Any

import anyio
from mcp import Client, StdioServerParameters, types

DEADLINE_SECONDS = 30


async def roots(_context: Any) -> types.ListRootsResult:
    return types.ListRootsResult(roots=[types.Root(uri="file:///tmp/wirecheck-client", name="wirecheck")])


async def sampling(_context: Any, _params: types.CreateMessageRequestParams) -> types.CreateMessageResult:
    return types.CreateMessageResult(
        role="assistant",
        content=types.TextContent(type="text", text="ok"),
        model="wirecheck-fixed-reply",
        stop_reason="endTurn",
    )


async def exchange(server: StdioServerParameters | str, transport: str, mode: str) -> dict[str, Any]:
    seen: dict[str, Any] = {"client": "python-sdk", "transport": transport, "mode": mode, "errors": []}
    legacy = mode == "legacy"
    progress: list[float] = []

    async def on_progress(value: float, _total: float | None, _message: str | None) -> None:
        progress.append(value)

    async with Client(
        server,
        mode=mode,
        log_level=None if legacy else "info",
        cache=None,
        raise_exceptions=True,
        list_roots_callback=roots,
        sampling_callback=sampling,
    ) as client:
        await client.list_tools()
        if legacy:
            await client.set_logging_level("info")
        first = await client.call_tool("echo", {"text": "hello"}, progress_callback=on_progress)
        seen["echo"] = getattr(first.content[0], "text", None) if first.content else None
        for i in range(4):
            try:
                result = await client.call_tool("echo", {"text": f"again {i}"})
                seen["errors"].append("isError" if result.is_error else "result")
            except Exception as error:  # noqa: BLE001 - the error is what is recorded
                seen["errors"].append(getattr(getattr(error, "error", None), "code", repr(error)))
        # Every page, each cursor sent back as the peer issued it (the client
        # judge's mcp.pagination.cursor-opaque).
        page = await client.list_tools()
        seen["pages"] = 1
        while page.next_cursor is not None and seen["pages"] < 16:
            page = await client.list_tools(cursor=page.next_cursor)
            seen["pages"] += 1
        seen["protocolVersion"] = client.protocol_version
    seen["progress"] = len(progress)
    return seen


def main() -> int:
    args = sys.argv[1:]
    mode = "legacy"
    if args[:1] == ["--mode"] and len(args) > 1:
        mode, args = args[1], args[2:]
    if len(args) != 2 or args[0] not in ("stdio", "http"):
        print(__doc__, file=sys.stderr)
        return 2
    transport, target = args
    server: StdioServerParameters | str
    if transport == "stdio":
        command, *args = target.split(" ")
        server = StdioServerParameters(command=command, args=args)
    else:
        server = target

    async def bounded() -> dict[str, Any]:
        with anyio.fail_after(DEADLINE_SECONDS):
            return await exchange(server, transport, mode)

    try:
        seen = anyio.run(bounded)
    except BaseException as error:  # noqa: BLE001 - any failure is a failed run
        print(f"python-sdk {transport}: {error!r}", file=sys.stderr)
        return 1
    print(json.dumps(seen))
    return 0


if __name__ == "__main__":
    sys.exit(main())
