import type { AgentEvent } from "../agent/events.js";
import type { Message, UserMessage } from "../conversation/messages.js";
import type { Usage } from "../providers/types.js";
import { offersSkillTool, type Skill, type SkillCatalog, type SkillProblem } from "../skills/catalog.js";
import { skillInstructions } from "../skills/instructions.js";
import { LOADED_SKILLS } from "../skills/skill-tool.js";
import type { SessionState } from "../tools/session-state.js";
import { trustRootOf, type ProjectTrust } from "../trust/project-trust.js";
import type { ModelProfile } from "./model-profile.js";
import { untrustedProjectWarning } from "./project-trust-policy.js";
import { rerankWithModel } from "./skill-rerank.js";
import { skillPrompt } from "./skill-turn.js";
import type { ToolSet } from "./tool-set.js";

export interface SkillSessionInput {
  catalog: SkillCatalog;
  tools: ToolSet;
  state: SessionState;
  history: readonly Message[];
  sessionId: string;
  cwd: string;
  ranking: "bm25" | "llm";
  /** What the untrusted project was denied, named in one warning on the first turn. */
  untrusted: { servers: readonly string[]; settings: readonly string[]; trust: ProjectTrust };
  onUsage: (usage: Usage, model: string) => void;
}

/** The session's skills: read once, reported once, listed (and `/name` expanded) in each prompt. */
export class SkillSession {
  /** The skills that loaded and the problems of the others, read once. */
  private loading: Promise<{ skills: Skill[]; problems: SkillProblem[] }> | undefined;
  /** The skills' problems and what the untrusted project held back have been reported. */
  private reported = false;

  constructor(private readonly input: SkillSessionInput) {}

  /**
   * The skills' metadata, read once (for `system/init` or the first turn, whichever comes first);
   * the Skill tool goes when no skill that loaded is model-invocable.
   */
  loaded(): Promise<{ skills: Skill[]; problems: SkillProblem[] }> {
    this.loading ??= this.input.catalog.load().then((loaded) => {
      if (!offersSkillTool(loaded.skills)) this.input.tools.dropSkillTool();
      return loaded;
    });
    return this.loading;
  }

  /** The user-invocable skills, as the `initialize` answer lists commands. */
  async commands(): Promise<Array<{ name: string; description: string; argumentHint: string }>> {
    const { skills } = await this.input.catalog.load();
    return skills
      .filter((skill) => skill.userInvocable)
      .map((skill) => ({ name: skill.name, description: skill.description, argumentHint: skill.argumentHint ?? "" }));
  }

  /**
   * Reports each broken skill once, on the first turn, and returns the prompt with the skill
   * listing (sized for the turn's model) and any `/skill` expansion.
   */
  async prepare(prompt: UserMessage, profile: ModelProfile, emit: (event: AgentEvent) => void, signal: AbortSignal): Promise<UserMessage> {
    const { catalog, ranking, sessionId } = this.input;
    const { skills, problems } = await this.loaded();
    if (!this.reported) {
      this.reported = true;
      for (const warning of this.startupWarnings(skills, problems)) emit(warning);
    }
    if (catalog.entries.length === 0) return prompt;
    const rerank =
      ranking === "llm"
        ? (promptText: string, candidates: Skill[]) =>
            rerankWithModel({
              provider: profile.provider,
              model: profile.model,
              sessionId,
              promptText,
              candidates,
              signal,
              onUsage: this.input.onUsage,
            })
        : undefined;
    return skillPrompt({
      catalog,
      prompt,
      history: this.input.history,
      sessionState: this.input.state,
      budgetChars: profile.skillListingBudget,
      ...(rerank ? { rerank } : {}),
    });
  }

  /** The instructions of the skills loaded this session, for what survives a summary. */
  async instructions(): Promise<string[]> {
    const loaded = this.input.state.get(LOADED_SKILLS);
    if (loaded.size === 0) return [];
    const { skills } = await this.input.catalog.load();
    const bodies = await Promise.all(
      skills.filter((skill) => loaded.has(skill.name)).map((skill) => skillInstructions(skill, undefined).catch(() => "")),
    );
    return bodies.filter((body) => body !== "").map((body) => `# A skill loaded earlier in this session\n\n${body}`);
  }

  /** `/clear`: the conversation that loaded them is gone. */
  forgetLoaded(): void {
    this.input.state.clear(LOADED_SKILLS);
  }

  private startupWarnings(skills: readonly Skill[], problems: readonly SkillProblem[]): AgentEvent[] {
    const warnings: AgentEvent[] = problems.map((problem) => {
      const what = problem.code === "skill_skipped" ? "was skipped" : "was loaded with a fix";
      return {
        type: "warning",
        code: problem.code,
        message: `The skill at ${problem.path} ${what}: ${problem.reason}.`,
        path: problem.path,
      };
    });
    const { untrusted } = this.input;
    const message = untrustedProjectWarning({
      root: trustRootOf(this.input.cwd),
      servers: untrusted.servers,
      skills: skills.filter((skill) => skill.withheldGrants?.reason === "untrusted-project").map((skill) => skill.name),
      settings: untrusted.settings,
      storeProblem: untrusted.trust.problem,
    });
    return message ? [...warnings, { type: "warning", code: "project_not_trusted", message }] : warnings;
  }
}
