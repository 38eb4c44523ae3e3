import * as z from "zod/mini";
import "../validation/english-issues.js";
import { HOOK_EVENT_NAMES } from "../../protocol/hook-events.js";
import { PERMISSION_MODES, type PermissionModeName } from "../../protocol/permission-mode.js";
import { PARSE_ONCE } from "../validation/parse-once.js";

/**
 * One Claude Code settings file (`settings.json`), reduced to what agentwire acts on:
 * `permissions` (allow, deny, ask, defaultMode, additionalDirectories), `env`, `model`,
 * `hooks` (shell commands) and `disableAllHooks`. Claude Code has many more keys; they are
 * ignored without a word, as the file is shared with Claude Code itself.
 *
 * Each field is checked on its own: a bad one is left out with a problem that names it, and the
 * rest of the file still applies. Only text that is not a JSON object is refused whole.
 */

/** Seconds a hook may run when its entry names no `timeout` (Claude Code's default). */
export const DEFAULT_HOOK_TIMEOUT_SECONDS = 60;

export const HookEventNameSchema = z.enum(HOOK_EVENT_NAMES);
export type HookEventName = z.infer<typeof HookEventNameSchema>;

export type { PermissionModeName };

const PermissionModeSchema = z.enum(PERMISSION_MODES);

/** A shell-command hook as a settings file declares it, before it is tied to the file it came from. */
export interface DeclaredHook {
  event: HookEventName;
  /** Undefined, `""` or `*`: every occurrence of the event. */
  matcher: string | undefined;
  command: string;
  timeoutSeconds: number;
  /** `async: true`: runs in the background; what it answers decides nothing. */
  background: boolean;
  /** `once: true`: runs at most once per session. */
  once: boolean;
}

export interface SettingsDocument {
  allow: string[];
  deny: string[];
  ask: string[];
  defaultMode: PermissionModeName | undefined;
  additionalDirectories: string[];
  env: Record<string, string>;
  model: string | undefined;
  hooks: DeclaredHook[];
  /** `disableAllHooks: true`: no hook from any settings file runs. */
  disableAllHooks: boolean;
}

const RuleListSchema = z.array(z.string().check(z.minLength(1)));
const DirectoryListSchema = z.array(z.string().check(z.minLength(1)));
const ModelSchema = z.string().check(z.minLength(1));
/** A name a process environment can hold (no `=`, no NUL). */
const VARIABLE_NAME = /^[^=\0]+$/;

/**
 * The settings in `text`, and a problem for each part that could not be used (each starts with
 * the field's path: "permissions.allow: …"). An error instead when the text is not a JSON object.
 * Pure.
 */
export function parseSettingsDocument(text: string): { document: SettingsDocument; problems: string[] } | { error: string } {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    return { error: `not valid JSON (${(error as Error).message})` };
  }
  if (!isObject(json)) return { error: "not a JSON object" };
  const problems: string[] = [];
  const field = <T>(path: string, schema: z.ZodMiniType<T>, value: unknown): T | undefined => {
    if (value === undefined || value === null) return undefined;
    const parsed = schema.safeParse(value, PARSE_ONCE);
    if (parsed.success) return parsed.data;
    problems.push(`${path}: ${parsed.error.issues[0]?.message ?? "invalid"}; ignored`);
    return undefined;
  };
  const permissions = json.permissions === undefined || json.permissions === null ? {} : json.permissions;
  if (!isObject(permissions)) problems.push("permissions: must be an object; ignored");
  const rules = isObject(permissions) ? permissions : {};
  const allow = field("permissions.allow", RuleListSchema, rules.allow) ?? [];
  const deny = field("permissions.deny", RuleListSchema, rules.deny) ?? [];
  const ask = field("permissions.ask", RuleListSchema, rules.ask) ?? [];
  const defaultMode = defaultModeOf(rules.defaultMode, problems);
  const additionalDirectories = field("permissions.additionalDirectories", DirectoryListSchema, rules.additionalDirectories) ?? [];
  const env = environmentOf(json.env, problems);
  const model = field("model", ModelSchema, json.model);
  const hooks = hooksOf(json.hooks, problems);
  const disableAllHooks = field("disableAllHooks", z.boolean(), json.disableAllHooks) ?? false;
  return { document: { allow, deny, ask, defaultMode, additionalDirectories, env, model, hooks, disableAllHooks }, problems };
}

/** `permissions.defaultMode`: a mode's name; `manual` is Claude Code's other name for `default`. */
function defaultModeOf(value: unknown, problems: string[]): PermissionModeName | undefined {
  if (value === undefined || value === null) return undefined;
  if (value === "manual") return "default";
  const parsed = PermissionModeSchema.safeParse(value, PARSE_ONCE);
  if (parsed.success) return parsed.data;
  problems.push(`permissions.defaultMode: must be one of ${PermissionModeSchema.options.join(", ")}; ignored`);
  return undefined;
}

/** `env`: each variable on its own; numbers and booleans as the text they read as, anything else left out. */
function environmentOf(value: unknown, problems: string[]): Record<string, string> {
  if (value === undefined || value === null) return {};
  if (!isObject(value)) {
    problems.push("env: must be an object of variable names and values; ignored");
    return {};
  }
  const env: Record<string, string> = {};
  for (const [name, entry] of Object.entries(value)) {
    if (!VARIABLE_NAME.test(name)) problems.push(`env.${name}: not a variable name; ignored`);
    else if (typeof entry === "string") env[name] = entry;
    else if (typeof entry === "number" || typeof entry === "boolean") env[name] = String(entry);
    else problems.push(`env.${name}: must be a string; ignored`);
  }
  return env;
}

/**
 * `hooks`: `{Event: [{matcher?, hooks: [{type: "command", command, timeout?}]}]}`. Events
 * agentwire does not raise, and hook types other than `command` (http, prompt, agent, mcp_tool),
 * are left out with a problem: a hook the user counts on must not be skipped without a word.
 */
function hooksOf(value: unknown, problems: string[]): DeclaredHook[] {
  if (value === undefined || value === null) return [];
  if (!isObject(value)) {
    problems.push("hooks: must be an object of event names; ignored");
    return [];
  }
  const hooks: DeclaredHook[] = [];
  for (const [eventName, groups] of Object.entries(value)) {
    const event = HookEventNameSchema.safeParse(eventName, PARSE_ONCE);
    if (!event.success) {
      problems.push(
        `hooks.${eventName}: agentwire does not raise this event (it raises ${HOOK_EVENT_NAMES.join(", ")}); its hooks are ignored`,
      );
      continue;
    }
    if (!Array.isArray(groups)) {
      problems.push(`hooks.${eventName}: must be a list of matchers; ignored`);
      continue;
    }
    groups.forEach((group: unknown, groupIndex) => {
      const where = `hooks.${eventName}[${groupIndex}]`;
      if (!isObject(group) || !Array.isArray(group.hooks)) {
        problems.push(`${where}: must be {"matcher": …, "hooks": [ … ]}; ignored`);
        return;
      }
      if (group.matcher !== undefined && group.matcher !== null && typeof group.matcher !== "string") {
        problems.push(`${where}.matcher: must be a string; the group is ignored`);
        return;
      }
      const matcher = typeof group.matcher === "string" ? group.matcher : undefined;
      group.hooks.forEach((hook: unknown, hookIndex) => {
        const declared = declaredHook(event.data, matcher, hook, `${where}.hooks[${hookIndex}]`, problems);
        if (declared) hooks.push(declared);
      });
    });
  }
  return hooks;
}

function declaredHook(
  event: HookEventName,
  matcher: string | undefined,
  hook: unknown,
  where: string,
  problems: string[],
): DeclaredHook | undefined {
  if (!isObject(hook)) {
    problems.push(`${where}: must be an object; ignored`);
    return undefined;
  }
  if (hook.type !== "command") {
    problems.push(`${where}: hooks of type ${JSON.stringify(hook.type)} are not supported by agentwire (only "command"); ignored`);
    return undefined;
  }
  if (typeof hook.command !== "string" || hook.command.trim() === "") {
    problems.push(`${where}.command: must be a non-empty string; ignored`);
    return undefined;
  }
  // Exec form runs a program without a shell, and PowerShell is not there: running `command`
  // through bash instead would run something other than what was written.
  if (hook.args !== undefined || (hook.shell !== undefined && hook.shell !== "bash")) {
    problems.push(
      `${where}: ${hook.args !== undefined ? "args (exec form)" : `shell ${JSON.stringify(hook.shell)}`} is not supported by agentwire; ignored`,
    );
    return undefined;
  }
  if (hook.if !== undefined) problems.push(`${where}.if: not supported by agentwire; the hook runs for every call its matcher matches`);
  let timeoutSeconds = DEFAULT_HOOK_TIMEOUT_SECONDS;
  if (hook.timeout !== undefined && hook.timeout !== null) {
    if (typeof hook.timeout === "number" && Number.isFinite(hook.timeout) && hook.timeout > 0) timeoutSeconds = hook.timeout;
    else problems.push(`${where}.timeout: must be a positive number of seconds; ${DEFAULT_HOOK_TIMEOUT_SECONDS} is used`);
  }
  return { event, matcher, command: hook.command, timeoutSeconds, background: hook.async === true, once: hook.once === true };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
