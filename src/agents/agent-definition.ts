import * as z from "zod/mini";
import "../validation/english-issues.js";
import { PERMISSION_MODES } from "../../protocol/permission-mode.js";
import { lazySchema } from "../validation/lazy-schema.js";

/**
 * An agent definition: a kind of subagent the Agent tool can start (its `subagent_type`), with the
 * instructions, tools and model it runs with. The fields are those of the Agent SDK's
 * `AgentDefinition` (TypeScript and Python), which hosts send in `initialize` and `--agents`
 * carries; markdown files under `agents/` folders give the same fields in their frontmatter.
 */

/** Where a definition came from; a later source in this list wins over an earlier one of the same name. */
export const AGENT_SOURCES = ["built-in", "user", "project", "cli", "sdk"] as const;
export type AgentSource = (typeof AGENT_SOURCES)[number];

/**
 * What the Agent tool's `subagent_type` names: letters, digits, `-`, `_` and `.` inside
 * (`powershell-5.1-expert` is a real one). Never a path separator, never starting with a dot or
 * `_`, so `__proto__` is refused; other names an object holds by default (`constructor`) are
 * harmless because definitions are kept in Maps, never looked up in objects.
 */
export const AGENT_NAME = /^[A-Za-z0-9](?:[A-Za-z0-9._-]{0,62}[A-Za-z0-9])?$/;
const NAME_RULE = "must be 1-64 letters, digits, '-', '_' or '.', starting and ending with a letter or digit";

const text = () => z.string().check(z.trim(), z.minLength(1));
const names = () => z.array(text());

/** The reasoning effort levels Claude Code's definitions take (or a number of thinking tokens). */
export const AGENT_EFFORTS = ["low", "medium", "high", "xhigh", "max"] as const;

/**
 * The fields a host or a file gives. Unknown fields are dropped (the SDK adds experimental ones
 * between releases); a known field of the wrong type is an error. Built at the first definition
 * read: most runs have none.
 */
export const agentFieldsSchema = lazySchema(() =>
  z.object({
    /** When to use this agent: what the model reads when it picks one. */
    description: text(),
    /** The subagent's system prompt. */
    prompt: text(),
    /** The tools it may use; absent: all of the parent's. */
    tools: z.optional(names()),
    /** Tools taken away from what it would otherwise have. */
    disallowedTools: z.optional(names()),
    /** `inherit` (the parent's model), an alias or a model id; absent: the parent's. */
    model: z.optional(text()),
    effort: z.optional(z.union([z.enum(AGENT_EFFORTS), z.int().check(z.positive())])),
    maxTurns: z.optional(z.int().check(z.positive())),
    permissionMode: z.optional(z.enum(PERMISSION_MODES)),
    /** Start it in the background whatever the call says. */
    background: z.optional(z.boolean()),
    /** Skills whose instructions it starts with. */
    skills: z.optional(names()),
    initialPrompt: z.optional(z.string()),
    memory: z.optional(z.enum(["user", "project", "local"])),
    /** MCP servers by name, or `{name: config}` inline. */
    mcpServers: z.optional(z.array(z.union([text(), z.record(z.string(), z.unknown())]))),
  }),
);
export type AgentFields = z.output<ReturnType<typeof agentFieldsSchema>>;

export type AgentDefinition = AgentFields & {
  name: string;
  source: AgentSource;
  /** The markdown file it was read from (project and user definitions). */
  file?: string;
  /**
   * The built-in `fork`: the subagent starts from a copy of the parent's conversation instead of
   * a fresh one with only its prompt. No other definition sets it.
   */
  inheritsConversation?: true;
};

/** A definition a host or the command line gave that cannot be used: the message says which and why. */
export class AgentDefinitionError extends Error {}

/**
 * `{name: fields}` as `--agents`, `initialize` and the library's `agents` option carry it, checked:
 * the definitions, or an `AgentDefinitionError` naming the first problem. `origin` names where it
 * came from in that message.
 */
export function parseAgentRecord(record: unknown, source: "cli" | "sdk", origin: string): AgentDefinition[] {
  if (typeof record !== "object" || record === null || Array.isArray(record))
    throw new AgentDefinitionError(
      `${origin} must be an object of agent definitions by name, like {"reviewer":{"description":"…","prompt":"…"}}`,
    );
  return Object.entries(record).map(([name, fields]) => {
    if (!AGENT_NAME.test(name)) throw new AgentDefinitionError(`${origin}: the agent name ${JSON.stringify(name)} ${NAME_RULE}`);
    const parsed = agentFieldsSchema().safeParse(fields);
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      throw new AgentDefinitionError(`${origin}: agent "${name}", ${issue.path.join(".") || "definition"}: ${issue.message}`);
    }
    return { name, source, ...withoutAbsent(parsed.data) };
  });
}

/** The fields without keys whose value is undefined: definitions compare and print cleanly. */
export function withoutAbsent<T extends object>(fields: T): T {
  return Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined)) as T;
}
