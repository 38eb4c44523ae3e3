import { InitializeRequestSchema, type InitializeResponse } from "../../protocol/control.js";
import { AgentDefinitionError } from "../agents/agent-definition.js";
import { agentInfo } from "../agents/agent-listing.js";
import { AGENTWIRE_VERSION } from "../version.js";
import { validated } from "./control-reply.js";
import { HostHooks } from "./host-hooks.js";
import { loadHostMcpServers } from "./stream-input-context.js";

/**
 * `initialize`: registers the host's hooks, starts loading its in-process MCP servers and the
 * output schema (turns wait for both), and answers with the session's commands and settings.
 */
export const answerInitialize = validated(InitializeRequestSchema, (request, reply, context) => {
  const { session, host, log } = context;
  if (request.agents !== undefined) {
    try {
      session.setHostAgents(request.agents);
    } catch (error) {
      if (error instanceof AgentDefinitionError) return reply.failure(error.message);
      throw error;
    }
  }
  // An event sent as null or with no matchers registers nothing.
  const hooks = Object.fromEntries(
    Object.entries(request.hooks ?? {}).filter(([, matchers]) => matchers !== undefined && matchers.length > 0),
  );
  if (host && Object.keys(hooks).length > 0) {
    session.setHooks(new HostHooks(host, hooks, (message) => log.warn(message)));
  }
  loadHostMcpServers(context, [...(request.sdkMcpServers ?? []), ...context.hostMcpServers], request.sdkMcpServerManifests);
  const answer: Omit<InitializeResponse, "commands" | "agents"> = {
    models: context.models,
    account: {},
    output_style: "default",
    available_output_styles: ["default"],
    pid: context.pid,
    agentwire_version: AGENTWIRE_VERSION,
    current_permission_mode: session.permissionMode,
    ...(Object.keys(hooks).length > 0 ? { hooks_applied: true as const } : {}),
  };
  // The SDK's `outputFormat` arrives here; turns wait until its tool is built.
  const outputSchema = request.jsonSchema ? session.setOutputSchema(request.jsonSchema) : Promise.resolve();
  context.setup.add(outputSchema.catch(() => undefined));
  // The user-invocable skills are the session's commands (`/name args`).
  return outputSchema.then(
    () =>
      Promise.all([session.skillCommands(), session.agentDefinitions()]).then(([commands, agents]) =>
        reply.success({ commands, agents: agents.map(agentInfo), ...answer } satisfies InitializeResponse),
      ),
    (error: Error) => reply.failure(`initialize: jsonSchema is not a valid JSON Schema: ${error.message}`),
  );
});
