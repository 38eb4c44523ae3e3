import { randomUUID } from "../text/random-uuid.js";
import { realpathSync, statSync } from "node:fs";
import path from "node:path";
import type * as z from "zod";
import type { PermissionModeName } from "../../protocol/permission-mode.js";
import { deleteSession, findSession, listSessions, sessionHistory } from "../api/sessions.js";
import { isSameOrInside } from "../paths/real-path.js";
import { HttpError } from "./http.js";
import { LiveSession } from "./live-session.js";
import type { CreateSessionSchema } from "./request-schemas.js";

type StoredEvent = Record<string, unknown>;

export interface WebSessionSettings {
  /** The default working directory of new sessions. */
  cwd: string;
  /** Real paths of the folders sessions may work in. */
  roots: string[];
  defaults: { provider?: string | undefined; model?: string | undefined; permissionMode: PermissionModeName };
  env: Readonly<Record<string, string | undefined>>;
}

/**
 * The sessions one web server knows: those running here (live), and the stored ones inside the
 * folders it may use. Every route handler works through this one object, the server's only state.
 */
export class WebSessions {
  private readonly live = new Map<string, LiveSession>();
  /** Earlier turns: for a live session, what was stored before it went live (its log has the rest). */
  private readonly historyAtStart = new Map<string, StoredEvent[]>();

  constructor(readonly settings: WebSessionSettings) {}

  /** The session running here, or a 404 that says how to continue it. */
  running(sessionId: string): LiveSession {
    const session = this.live.get(sessionId);
    if (!session)
      throw new HttpError(
        404,
        `Session ${sessionId} is not running here; POST /api/sessions with {"resume": "${sessionId}"} continues it.`,
      );
    return session;
  }

  history(sessionId: string): StoredEvent[] {
    const history =
      this.historyAtStart.get(sessionId) ??
      (this.storedSessionFolder(sessionId) ? sessionHistory(sessionId, { env: this.settings.env, all: true }) : undefined);
    if (!history) throw new HttpError(404, `No session ${sessionId}.`);
    return history;
  }

  /** Starts a session, or resumes a stored one live; answers 200 for one already running, 201 for a new one. */
  create(body: z.infer<typeof CreateSessionSchema>): { status: 200 | 201; id: string } {
    if (body.resume && this.live.has(body.resume)) return { status: 200, id: body.resume };
    const { settings } = this;
    // A resumed session goes on in its own folder.
    const storedFolder = body.resume ? this.storedSessionFolder(body.resume) : undefined;
    const stored = storedFolder ? sessionHistory(body.resume!, { env: settings.env, all: true }) : undefined;
    if (body.resume && !stored) throw new HttpError(404, `No stored session ${body.resume} in the folders this server may use.`);
    const history = stored ?? [];
    const cwd = this.allowedDirectory(body.cwd ?? storedFolder ?? settings.cwd);
    const id = body.resume ?? randomUUID();
    const provider = body.provider ?? settings.defaults.provider;
    const model = body.model ?? settings.defaults.model;
    const session = new LiveSession(id, cwd, {
      env: settings.env,
      permissionMode: body.permissionMode ?? settings.defaults.permissionMode,
      additionalDirectories: settings.roots.filter((root) => root !== cwd),
      ...(provider ? { provider: provider as never } : {}),
      ...(model ? { model } : {}),
      ...(body.resume ? { resume: body.resume } : { sessionId: id }),
    });
    this.live.set(id, session);
    this.historyAtStart.set(id, history);
    return { status: 201, id };
  }

  /** Stops the session if it runs here and deletes its file. */
  async remove(sessionId: string): Promise<void> {
    const session = this.live.get(sessionId);
    if (!session && !this.storedSessionFolder(sessionId)) throw new HttpError(404, `No session ${sessionId}.`);
    if (session) {
      this.live.delete(sessionId);
      this.historyAtStart.delete(sessionId);
      await session.close();
    }
    const outcome = deleteSession(sessionId, { env: this.settings.env, all: true });
    // A live session that never wrote a file has nothing to delete.
    if (outcome === "not_found" && !session) throw new HttpError(404, `No session ${sessionId}.`);
    if (typeof outcome === "object")
      throw new HttpError(409, `Session ${sessionId} is in use by process ${outcome.inUseBy}; it was not deleted.`);
  }

  /** Stored and live sessions inside the roots, newest first, filtered by `search`. */
  list(search: string) {
    const { roots, env } = this.settings;
    const stored = listSessions({ env, all: true }).filter((summary) => roots.some((root) => isSameOrInside(summary.cwd, root)));
    const rows = new Map(
      stored.map((summary) => [
        summary.sessionId,
        {
          id: summary.sessionId,
          cwd: summary.cwd,
          updated: summary.updatedAt,
          firstPrompt: summary.title,
          turns: summary.turns,
          costUsd: summary.totalCostUsd,
          running: this.live.has(summary.sessionId),
        },
      ]),
    );
    for (const session of this.live.values()) {
      if (!rows.has(session.id))
        rows.set(session.id, {
          id: session.id,
          cwd: session.cwd,
          updated: new Date().toISOString(),
          firstPrompt: "",
          turns: 0,
          costUsd: 0,
          running: true,
        });
    }
    const needle = search.trim().toLowerCase();
    return [...rows.values()]
      .filter((row) => needle === "" || `${row.firstPrompt} ${row.id} ${row.cwd}`.toLowerCase().includes(needle))
      .sort((a, b) => (a.updated < b.updated ? 1 : -1));
  }

  /** Starts closing every live session; resolves when all are closed. */
  async closeAll(): Promise<void> {
    await Promise.all([...this.live.values()].map((session) => session.close()));
  }

  /** The folder of a stored session this server may show, resume or delete: one inside the roots. */
  private storedSessionFolder(sessionId: string): string | undefined {
    const stored = findSession(sessionId, { env: this.settings.env });
    return stored !== undefined && this.settings.roots.some((root) => isSameOrInside(stored.cwd, root)) ? stored.cwd : undefined;
  }

  /** A working directory for a new session: an existing folder inside the allowed roots. */
  private allowedDirectory(requested: string): string {
    const { cwd, roots } = this.settings;
    let real: string;
    try {
      real = realpathSync(path.resolve(cwd, requested));
      if (!statSync(real).isDirectory()) throw new Error("not a directory");
    } catch {
      throw new HttpError(400, `cwd ${requested} is not an existing directory.`);
    }
    if (!roots.some((root) => isSameOrInside(real, root)))
      throw new HttpError(400, `cwd ${requested} is outside the folders this server may use (${roots.join(", ")}).`);
    return real;
  }
}
