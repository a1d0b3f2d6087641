#!/usr/bin/env python3
"""End-to-end test of `mydesign-docs serve` with the official Python MCP SDK (`pip install mcp`), a client nobody
here wrote: it validates tools/list, checks every tool's structuredContent against the tool's outputSchema, and
raises on protocol errors.

    mcp_client.py --server BIN [--bundles DIR] --profile sample|semi [--transport stdio|http|all] [--mode legacy|auto|all]

For each transport (stdio: the SDK spawns `BIN serve --bundles DIR`; http: `BIN serve --http 127.0.0.1:0`, the SDK
connects to the logged URL) and each connection mode (legacy: the initialize handshake, as Claude Code, Cursor and
VS Code connect today; auto: the SDK's 2026-07-28 discovery, falling back to initialize) it checks:
tools/list, each tool with the profile's real values, each error path (isError results naming what exists,
and for malformed arguments the argument and its expected form (MCP 2025-11-25, SEP-1303); invalid-params errors
for unknown tools; the server still answering afterwards),
100 calls in a row, resources, and over HTTP several concurrent sessions. Prints one line per failure and ends with
`mcp_client: N passed, M failed`; exits 1 on any failure.
"""
import argparse
import asyncio
import re
import subprocess
import sys
import time

from jsonschema.validators import validator_for
from mcp import Client
from mcp.client.stdio import StdioServerParameters
from mcp.shared.exceptions import MCPError

INVALID_PARAMS = -32602
TOOLS = [
    "component_changes",
    "component_details",
    "get_changelog",
    "get_code_block",
    "get_file_code",
    "get_function_code",
    "list_components",
    "search_docs",
]
ANNOTATIONS = {"readOnlyHint": True, "destructiveHint": False, "idempotentHint": True, "openWorldHint": False}

# Real values: the sample (corpus/) and Semi Design (docs of 2.102.0; the set is versioned 2.90.10, its semi-foundation package: issue 9's version rule).
PROFILES = {
    "sample": dict(
        system="my-design", version="3.4.0", lang="en-US", component="table", lines=1444, blocks=33, pages=6,
        file="src/components/Table/Table.tsx", file_lines=1738, function="Table.render",
        other_lang="zh-CN", other_component="button", other_blocks=11,
    ),
    "semi": dict(
        system="semi", version="2.90.10", lang="zh-CN", component="table", lines=6374, blocks=53, pages=17,
        file="packages/semi-foundation/table/foundation.ts", file_lines=1286, function="TableFoundation.init",
        other_lang="en-US", other_component="table", other_blocks=50, other_pages=18,
    ),
}


class Checks:
    def __init__(self):
        self.passed = 0
        self.failed = []

    def check(self, label, cond, detail=""):
        if cond:
            self.passed += 1
        else:
            self.failed.append(f"{label}: {detail}")
            print(f"FAIL {label}: {detail}", flush=True)


def text_of(result):
    return result.content[0].text if result.content else ""


async def ok(c, checks, label, p, tool, args):
    """A successful call: not an error, text + structuredContent naming the system and version served (the SDK has
    already validated structuredContent against the outputSchema)."""
    r = await c.call_tool(tool, args)
    s = r.structured_content or {}
    good = (
        not r.is_error
        and s.get("system") == p["system"]
        and s.get("version") == p["version"]
        and text_of(r).startswith(f"[{p['system']} {p['version']} · ")
    )
    checks.check(f"{label} {tool} {args}", good, text_of(r)[:200])
    return r, s


async def tool_error(c, checks, label, tool, args, *needles):
    r = await c.call_tool(tool, args)
    t = text_of(r)
    checks.check(f"{label} {tool} {args} is an isError result", r.is_error, t[:200])
    for n in needles:
        checks.check(f"{label} {tool} {args} error names {n!r}", n in t, t[:300])


async def invalid_params(c, checks, label, tool, args):
    try:
        r = await c.call_tool(tool, args)
        checks.check(f"{label} {tool} {args} is invalid params", False, f"got a result: {text_of(r)[:200]}")
    except MCPError as e:
        checks.check(f"{label} {tool} {args} is invalid params", e.code == INVALID_PARAMS, f"{e.code} {e.message}")


async def session(c, checks, label, p):
    checks.check(f"{label} instructions", p["system"] in (c.instructions or ""), repr(c.instructions))

    # tools/list: the seven tools, each a valid definition with valid JSON schemas.
    tools = (await c.list_tools()).tools
    checks.check(f"{label} tools/list names", sorted(t.name for t in tools) == TOOLS, [t.name for t in tools])
    for t in tools:
        for kind, schema in (("input", t.input_schema), ("output", t.output_schema)):
            try:
                validator_for(schema).check_schema(schema)
                checks.check(f"{label} {t.name} {kind}Schema", schema.get("type") == "object", schema)
            except Exception as e:  # a schema the metaschema rejects
                checks.check(f"{label} {t.name} {kind}Schema is valid", False, e)
        ann = t.annotations.model_dump(by_alias=True, exclude_none=True) if t.annotations else {}
        checks.check(f"{label} {t.name} annotations", {k: ann.get(k) for k in ANNOTATIONS} == ANNOTATIONS, ann)
        checks.check(f"{label} {t.name} title", bool(t.title), t.title)

    comp, blocks, pages = p["component"], p["blocks"], p["pages"]
    _, s = await ok(c, checks, label, p, "list_components", {})
    checks.check(f"{label} list_components lists {comp}", any(x["name"] == comp for x in s.get("components", [])))
    r, s = await ok(c, checks, label, p, "component_details", {"component": comp})
    checks.check(f"{label} {comp} document", (s.get("lines"), s.get("code_blocks"), s.get("hidden")) == (p["lines"], blocks, True), s.get("lines"))
    checks.check(f"{label} {comp} placeholders", f"#{blocks}" in text_of(r) and f"#{blocks + 1}" not in text_of(r))
    r, s = await ok(c, checks, label, p, "component_details", {"component": f"changelog-{pages}"})
    checks.check(f"{label} changelog-{pages}", (s.get("page"), s.get("pages"), s.get("next")) == (pages, pages, None), s)
    r, s = await ok(c, checks, label, p, "get_code_block", {"component": comp, "index": blocks})
    checks.check(f"{label} block {blocks}", (s.get("index"), s.get("count")) == (blocks, blocks) and s["text"].lstrip().startswith(("```", "~~~")), s.get("index"))
    r, s = await ok(c, checks, label, p, "get_changelog", {"page": pages})
    checks.check(
        f"{label} changelog page {pages} of {pages}",
        (s.get("page"), s.get("pages"), s.get("previous"), s.get("next")) == (pages, pages, pages - 1, None)
        and f"page {pages}/{pages}" in text_of(r),
        text_of(r)[:200],
    )
    _, s = await ok(c, checks, label, p, "get_changelog", {})
    checks.check(f"{label} changelog defaults to page 1", s.get("page") == 1 and s.get("previous") is None, s.get("page"))
    _, s = await ok(c, checks, label, p, "list_components", {"component": comp})
    checks.check(f"{label} files of {comp}", any(f["path"] == p["file"] for f in s.get("files", [])), s.get("files"))
    r, s = await ok(c, checks, label, p, "get_file_code", {"path": p["file"]})
    names = [f["name"] for f in s.get("functions", [])]
    checks.check(f"{label} skeleton of {p['file']}", s.get("skeleton") is True and p["function"] in names, s.get("skeleton"))
    # The whole file, part by part: following next_cursor gives every line once.
    whole, args, parts = "", {"path": p["file"], "full": True}, 0
    while parts < 100:
        _, s = await ok(c, checks, label, p, "get_file_code", args)
        whole, parts = whole + s.get("text", ""), parts + 1
        if not s.get("next_cursor"):
            break
        args = {"path": p["file"], "cursor": s["next_cursor"]}
    checks.check(f"{label} whole {p['file']} in {parts} parts", s.get("skeleton") is False and whole.count("\n") + 1 == p["file_lines"], parts)
    _, s = await ok(c, checks, label, p, "get_file_code", {"path": p["file"], "start_line": 2, "end_line": 4})
    checks.check(f"{label} lines 2-4 of {p['file']}", s.get("served_lines") == [2, 4] and s["text"].count("\n") == 3, s.get("served_lines"))
    _, s = await ok(c, checks, label, p, "component_details", {"component": comp, "detail": "brief"})
    checks.check(f"{label} card of {comp}", s.get("detail") == "brief" and s.get("tokens", 0) > 0 and "## Sections" in s.get("text", ""), s.get("tokens"))
    _, s = await ok(c, checks, label, p, "get_function_code", {"path": p["file"], "function": p["function"]})
    checks.check(f"{label} function {p['function']}", s.get("qualified") == p["function"] and s.get("text"), s.get("qualified"))
    _, s = await ok(c, checks, label, p, "get_code_block", {"component": p["other_component"], "index": p["other_blocks"], "lang": p["other_lang"], "version": p["version"], "system": p["system"]})
    checks.check(f"{label} {p['other_lang']} block", (s.get("doc_lang"), s.get("count")) == (p["other_lang"], p["other_blocks"]), s)
    if "other_pages" in p:
        _, s = await ok(c, checks, label, p, "get_changelog", {"page": p["other_pages"], "lang": p["other_lang"]})
        checks.check(f"{label} {p['other_lang']} changelog", s.get("pages") == p["other_pages"], s.get("pages"))

    # Failed lookups: isError results that say what exists.
    await tool_error(c, checks, label, "component_details", {"component": "tabel"}, "did you mean", comp)
    await tool_error(c, checks, label, "get_code_block", {"component": comp, "index": blocks + 1}, f"1..{blocks}")
    await tool_error(c, checks, label, "get_changelog", {"page": pages + 1}, f"1..{pages}")
    await tool_error(c, checks, label, "get_function_code", {"path": p["file"], "function": "nosuchfunction"}, "no function")
    await tool_error(c, checks, label, "get_file_code", {"path": "nope/nothing.ts"}, "no file")
    await tool_error(c, checks, label, "get_file_code", {"path": p["file"], "cursor": "garbage"}, "malformed cursor")
    await tool_error(c, checks, label, "component_details", {"component": comp, "max_tokens": 100}, "`max_tokens`: expected an integer from 300 to 4294967295; got 100")
    await tool_error(c, checks, label, "component_details", {"component": comp, "sections": ["no such heading"]}, "its sections (tokens)")
    await tool_error(c, checks, label, "list_components", {"version": "0.0.1"}, "available", p["version"])
    await tool_error(c, checks, label, "list_components", {"system": "nosuchsystem"}, "available", p["system"])

    # Malformed arguments: isError results naming the argument and what it takes (SEP-1303); an unknown tool: JSON-RPC
    # invalid params. The server keeps answering.
    for tool, args, needle in [
        ("get_code_block", {"component": comp, "index": 0}, "`index`: expected an integer from 1 to 4294967295"),
        ("get_code_block", {"component": comp, "index": -1}, "`index`: expected an integer from 1 to 4294967295"),
        ("get_code_block", {"component": comp, "index": "three"}, "`index`: expected an integer from 1"),
        ("get_code_block", {"index": 1}, "missing argument `component`: expected a string"),
        ("get_changelog", {"page": 0}, "`page`: expected an integer from 1"),
        ("get_changelog", {"page": -2}, "`page`: expected an integer from 1"),
        ("component_details", {"component": 7}, "`component`: expected a string"),
        ("list_components", {"langs": "en-US"}, "unknown argument `langs`"),
    ]:
        await tool_error(c, checks, label, tool, args, needle)
    await invalid_params(c, checks, label, "no_such_tool", {})
    await ok(c, checks, label, p, "get_code_block", {"component": comp, "index": 1})

    # 100 calls in a row, cycling through the tools.
    calls = [
        ("list_components", {}),
        ("component_details", {"component": comp}),
        ("get_code_block", {"component": comp, "index": blocks}),
        ("get_changelog", {"page": pages}),
        ("list_components", {"component": comp}),
        ("get_file_code", {"path": p["file"]}),
        ("get_function_code", {"path": p["file"], "function": p["function"]}),
    ]
    failures = 0
    start = time.perf_counter()
    for i in range(100):
        tool, args = calls[i % len(calls)]
        r = await c.call_tool(tool, args)
        failures += bool(r.is_error)
    ms = (time.perf_counter() - start) * 1000
    checks.check(f"{label} 100 calls in a row", failures == 0, f"{failures} failed")
    print(f"{label}: 100 calls in {ms:.0f} ms", flush=True)

    # Resources: the template, the list, and a read that matches component_details.
    templates = (await c.list_resource_templates()).resource_templates
    checks.check(f"{label} resource template", [t.uri_template for t in templates] == ["mydesign://{system}/{version}/{component}"], templates)
    uri = f"mydesign://{p['system']}/{p['version']}/{comp}"
    # The list is paged under the server's cap: follow nextCursor as a client does.
    listed, cursor = [], None
    while True:
        page = await c.list_resources(cursor=cursor)
        listed += page.resources
        cursor = page.next_cursor
        if not cursor:
            break
    checks.check(f"{label} resources/list has {uri}", any(str(x.uri) == uri for x in listed), len(listed))
    doc = text_of(await c.call_tool("component_details", {"component": comp}))
    for u in (uri, f"mydesign://{p['system']}/latest/{comp}"):
        contents = (await c.read_resource(u)).contents
        checks.check(f"{label} read {u}", contents and contents[0].text == doc and contents[0].mime_type == "text/markdown", contents[:1])
    try:
        await c.read_resource(f"mydesign://{p['system']}/{p['version']}/tabel")
        checks.check(f"{label} unknown resource is an error", False, "no error")
    except MCPError as e:
        checks.check(f"{label} unknown resource is an error", "did you mean" in e.message, e.message)


def bundle_args(bundles):
    """`--bundles DIR`, or nothing: the server then reads ./out, else the store (air-gapped installs)."""
    return ["--bundles", bundles] if bundles else []


def start_http(server, bundles):
    proc = subprocess.Popen(
        [server, "serve", "--http", "127.0.0.1:0", *bundle_args(bundles)],
        stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
    )
    deadline = time.time() + 20
    while time.time() < deadline:
        line = proc.stderr.readline()
        if not line:
            break
        m = re.search(r"serving MCP at (http://\S+/mcp)", line)
        if m:
            return proc, m.group(1)
    proc.kill()
    sys.exit(f"the HTTP server did not log its address (exit {proc.poll()})")


async def run(a, checks):
    p = PROFILES[a.profile]
    transports = ["stdio", "http"] if a.transport == "all" else [a.transport]
    modes = ["legacy", "auto"] if a.mode == "all" else [a.mode]
    for transport in transports:
        proc = None
        if transport == "stdio":
            target = StdioServerParameters(command=a.server, args=["serve", *bundle_args(a.bundles)])
        else:
            proc, target = start_http(a.server, a.bundles)
        try:
            for mode in modes:
                label = f"{a.profile}/{transport}/{mode}"
                start = time.perf_counter()
                async with Client(target, mode=mode, read_timeout_seconds=60) as c:
                    await session(c, checks, label, p)
                print(f"{label}: done in {(time.perf_counter() - start) * 1000:.0f} ms", flush=True)
            if transport == "http":
                # Several sessions at once, each with its own calls.
                async def one(i):
                    async with Client(target, mode="legacy", read_timeout_seconds=60) as c:
                        for _ in range(10):
                            r = await c.call_tool("get_code_block", {"component": p["component"], "index": 1 + i})
                            if r.is_error or r.structured_content["index"] != 1 + i:
                                return False
                    return True
                results = await asyncio.gather(*(one(i) for i in range(5)))
                checks.check(f"{a.profile}/http 5 concurrent sessions", all(results), results)
        finally:
            if proc:
                proc.kill()
                proc.wait()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--server", required=True, help="the mydesign-docs binary")
    ap.add_argument("--bundles", help="directory holding the bundle set (default: none given, the server's store)")
    ap.add_argument("--profile", choices=sorted(PROFILES), required=True)
    ap.add_argument("--transport", choices=["stdio", "http", "all"], default="all")
    ap.add_argument("--mode", choices=["legacy", "auto", "all"], default="all")
    a = ap.parse_args()
    checks = Checks()
    asyncio.run(run(a, checks))
    print(f"mcp_client: {checks.passed} passed, {len(checks.failed)} failed", flush=True)
    sys.exit(1 if checks.failed else 0)


if __name__ == "__main__":
    main()
