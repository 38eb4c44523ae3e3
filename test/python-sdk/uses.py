"""Everyday uses of the official Python Claude Agent SDK, driving agentwire as `cli_path`.

Run by test/python-sdk/real.test.ts (one process per use and provider):

    python3 uses.py USE '{"cli_path": ..., "cwd": ..., "model": ..., ...}'

The test prepares the workspace and the replay model server; this script only does what an SDK
user would do and prints one JSON line on stdout: every message the SDK yielded, reduced to the
fields the test checks (the same reduction python-sdk-messages.ts applies in the replay test),
what the user's callbacks saw, the exception the SDK raised if any, and the SDK's own warnings.
"""

import json
import logging
import sys
from dataclasses import dataclass, field
from typing import Any

import anyio

from claude_agent_sdk import (
    AssistantMessage,
    ClaudeAgentOptions,
    ClaudeSDKClient,
    HookMatcher,
    PermissionResultAllow,
    PermissionResultDeny,
    ResultMessage,
    StreamEvent,
    SystemMessage,
    TextBlock,
    ThinkingBlock,
    ToolResultBlock,
    ToolUseBlock,
    UserMessage,
    create_sdk_mcp_server,
    query,
    tool,
)


@dataclass
class Config:
    cli_path: str
    cwd: str
    model: str
    other_model: str
    env: dict[str, str]
    extra_args: dict[str, str | None]


@dataclass
class Report:
    messages: list[dict[str, Any]] = field(default_factory=list)
    # What the user's callbacks were called with: the replay test derives the same from
    # agentwire's control requests.
    facts: dict[str, list[Any]] = field(default_factory=lambda: {"can_use_tool": [], "hooks": [], "mcp_tool_calls": []})
    raised: str | None = None
    warnings: list[str] = field(default_factory=list)


def observe(message: Any) -> dict[str, Any]:
    """The fields of a parsed SDK message that the tests look at."""
    if isinstance(message, SystemMessage):
        data = message.data
        kept = {key: data[key] for key in ("model", "mcp_servers", "session_id", "permissionMode") if key in data}
        return {"type": "system", "subtype": message.subtype, **kept}
    if isinstance(message, AssistantMessage):
        return {"type": "assistant", "model": message.model, "error": message.error, "content": [block_of(b) for b in message.content]}
    if isinstance(message, UserMessage):
        content = message.content if isinstance(message.content, str) else [block_of(b) for b in message.content]
        return {"type": "user", "content": content}
    if isinstance(message, ResultMessage):
        return {
            "type": "result",
            "subtype": message.subtype,
            "is_error": message.is_error,
            "result": message.result,
            "session_id": message.session_id,
            "num_turns": message.num_turns,
            "structured_output": message.structured_output,
            "permission_denials": [d.get("tool_name") for d in message.permission_denials or []],
            "errors": message.errors,
        }
    if isinstance(message, StreamEvent):
        return {"type": "stream_event", "event_type": message.event.get("type")}
    return {"type": "other", "name": type(message).__name__}


def block_of(block: Any) -> dict[str, Any]:
    if isinstance(block, TextBlock):
        return {"type": "text", "text": block.text}
    if isinstance(block, ThinkingBlock):
        return {"type": "thinking"}
    if isinstance(block, ToolUseBlock):
        return {"type": "tool_use", "name": block.name, "input": block.input}
    if isinstance(block, ToolResultBlock):
        return {"type": "tool_result", "content": block.content, "is_error": bool(block.is_error)}
    return {"type": "other", "name": type(block).__name__}


def options(config: Config, **extra: Any) -> ClaudeAgentOptions:
    return ClaudeAgentOptions(
        cli_path=config.cli_path,
        cwd=config.cwd,
        model=config.model,
        env=config.env,
        extra_args=config.extra_args,
        **extra,
    )


async def collect(report: Report, iterable: Any) -> None:
    """Every message of a `query()` or a response, into the report; an exception ends it."""
    try:
        async for message in iterable:
            report.messages.append(observe(message))
    except Exception as error:  # noqa: BLE001 - the report says what the SDK raised
        report.raised = f"{type(error).__name__}: {error}"


# ------------------------------------------------------------------------------------------------
# The uses. Each one matches an entry of uses.ts (scenario, files, expectations).


async def query_text(config: Config, report: Report) -> None:
    await collect(report, query(prompt="Say hello.", options=options(config)))


async def client_multi_turn(config: Config, report: Report) -> None:
    async with ClaudeSDKClient(options(config)) as client:
        for prompt in ("First?", "Second?", "Third?"):
            await client.query(prompt)
            await collect(report, client.receive_response())


async def can_use_tool_allow(config: Config, report: Report) -> None:
    async def can_use_tool(name: str, tool_input: dict[str, Any], context: Any) -> Any:
        report.facts["can_use_tool"].append(name)
        return PermissionResultAllow(updated_input=tool_input)

    await collect(report, query(prompt="Read the file outside.", options=options(config, can_use_tool=can_use_tool)))


async def can_use_tool_deny(config: Config, report: Report) -> None:
    async def can_use_tool(name: str, tool_input: dict[str, Any], context: Any) -> Any:
        report.facts["can_use_tool"].append(name)
        return PermissionResultDeny(message="No shell today.")

    await collect(report, query(prompt="Touch a file.", options=options(config, can_use_tool=can_use_tool)))


def hook_seen(report: Report, hook_input: Any) -> None:
    seen = {"event": hook_input["hook_event_name"], "tool": hook_input.get("tool_name"), "input": hook_input.get("tool_input")}
    report.facts["hooks"].append(seen)


async def hook_with_matcher(config: Config, report: Report) -> None:
    async def guard(hook_input: Any, tool_use_id: str | None, context: Any) -> dict[str, Any]:
        hook_seen(report, hook_input)
        return {"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "deny", "permissionDecisionReason": "Hook says no."}}

    hooks = {"PreToolUse": [HookMatcher(matcher="Read", hooks=[guard])]}
    await collect(report, query(prompt="Read hello.txt, then list the files.", options=options(config, hooks=hooks)))


async def hook_without_matcher(config: Config, report: Report) -> None:
    async def guard(hook_input: Any, tool_use_id: str | None, context: Any) -> dict[str, Any]:
        hook_seen(report, hook_input)
        if hook_input.get("tool_name") != "Bash":
            return {}
        return {"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "deny", "permissionDecisionReason": "No matcher, still guarded."}}

    hooks = {"PreToolUse": [HookMatcher(hooks=[guard])]}
    await collect(report, query(prompt="Read hello.txt, then run a command.", options=options(config, hooks=hooks)))


async def sdk_mcp_tool(config: Config, report: Report) -> None:
    @tool("echo_upper", "Repeats the text in capitals", {"text": str})
    async def echo_upper(args: dict[str, Any]) -> dict[str, Any]:
        report.facts["mcp_tool_calls"].append(args)
        return {"content": [{"type": "text", "text": f"ECHO:{args['text'].upper()}"}]}

    harness = create_sdk_mcp_server(name="harness", version="1.0.0", tools=[echo_upper])
    run = query(prompt="Use the tool.", options=options(config, mcp_servers={"harness": harness}, allowed_tools=["mcp__harness__echo_upper"]))
    await collect(report, run)


async def interrupt(config: Config, report: Report) -> None:
    async with ClaudeSDKClient(options(config, include_partial_messages=True)) as client:
        await client.query("Write a long essay.")
        interrupted = False
        try:
            async for message in client.receive_response():
                report.messages.append(observe(message))
                if not interrupted and isinstance(message, StreamEvent) and message.event.get("type") == "content_block_delta":
                    interrupted = True
                    await client.interrupt()
        except Exception as error:  # noqa: BLE001
            report.raised = f"{type(error).__name__}: {error}"
        await client.query("Now just say done.")
        await collect(report, client.receive_response())


async def resume(config: Config, report: Report) -> None:
    await collect(report, query(prompt="First?", options=options(config)))
    first = next(m for m in report.messages if m["type"] == "result")
    await collect(report, query(prompt="Second?", options=options(config, resume=first["session_id"])))


async def fork_session(config: Config, report: Report) -> None:
    await collect(report, query(prompt="First?", options=options(config)))
    first = next(m for m in report.messages if m["type"] == "result")
    await collect(report, query(prompt="Second?", options=options(config, resume=first["session_id"], fork_session=True)))


async def partial_messages(config: Config, report: Report) -> None:
    await collect(report, query(prompt="Say hello.", options=options(config, include_partial_messages=True)))


async def output_format(config: Config, report: Report) -> None:
    schema = {"type": "object", "properties": {"answer": {"type": "integer"}}, "required": ["answer"]}
    await collect(report, query(prompt="2 + 2?", options=options(config, output_format={"type": "json_schema", "schema": schema})))


async def set_permission_mode(config: Config, report: Report) -> None:
    async with ClaudeSDKClient(options(config)) as client:
        await client.query("Write w.txt.")
        await collect(report, client.receive_response())
        await client.set_permission_mode("acceptEdits")
        await client.query("Write w.txt again.")
        await collect(report, client.receive_response())


async def set_model(config: Config, report: Report) -> None:
    async with ClaudeSDKClient(options(config)) as client:
        await client.query("First.")
        await collect(report, client.receive_response())
        await client.set_model(config.other_model)
        await client.query("Second.")
        await collect(report, client.receive_response())
        # No argument: back to the model the session started with.
        await client.set_model()
        await client.query("Third.")
        await collect(report, client.receive_response())


async def max_turns(config: Config, report: Report) -> None:
    await collect(report, query(prompt="Read every file.", options=options(config, max_turns=1)))


async def provider_error(config: Config, report: Report) -> None:
    await collect(report, query(prompt="Say hello.", options=options(config)))


USES = {
    "query-text": query_text,
    "client-multi-turn": client_multi_turn,
    "can-use-tool-allow": can_use_tool_allow,
    "can-use-tool-deny": can_use_tool_deny,
    "hook-with-matcher": hook_with_matcher,
    "hook-without-matcher": hook_without_matcher,
    "sdk-mcp-tool": sdk_mcp_tool,
    "interrupt": interrupt,
    "resume": resume,
    "fork-session": fork_session,
    "partial-messages": partial_messages,
    "output-format": output_format,
    "set-permission-mode": set_permission_mode,
    "set-model": set_model,
    "max-turns": max_turns,
    "provider-error": provider_error,
}


class WarningsOf(logging.Handler):
    """Keeps what the SDK logs at WARNING and above (the version check's notice, for one)."""

    def __init__(self, report: Report) -> None:
        super().__init__(logging.WARNING)
        self.report = report

    def emit(self, record: logging.LogRecord) -> None:
        self.report.warnings.append(record.getMessage())


async def main(use: str, config_json: str) -> None:
    # Not in the environment: the SDK passes all of it on to agentwire.
    config = Config(**json.loads(config_json))
    report = Report()
    logging.getLogger("claude_agent_sdk").addHandler(WarningsOf(report))
    with anyio.fail_after(60):
        await USES[use](config, report)
    print(json.dumps(report.__dict__))


if __name__ == "__main__":
    if len(sys.argv) != 3 or sys.argv[1] not in USES:
        print(f"usage: uses.py {{{','.join(USES)}}} CONFIG_JSON", file=sys.stderr)
        sys.exit(2)
    anyio.run(main, sys.argv[1], sys.argv[2])
