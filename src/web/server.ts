import { realpathSync } from "node:fs";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { PermissionModeName } from "../../protocol/permission-mode.js";
import { checkAccess, isWildcardHost, type AccessPolicy } from "./access.js";
import { HttpError, sendJson } from "./http.js";
import { dispatch, type WebServerState } from "./routes.js";
import { StaticFiles } from "./static-files.js";
import { WebSessions } from "./web-sessions.js";

export interface ListedModel {
  provider: string;
  id: string;
  displayName: string;
}

export interface WebServerOptions {
  host: string;
  /** 0: a free port. */
  port: number;
  token: string;
  /** The default working directory of new sessions; with `roots`, where sessions may work. */
  cwd: string;
  roots: string[];
  defaults: { provider?: string | undefined; model?: string | undefined; permissionMode: PermissionModeName };
  env: Readonly<Record<string, string | undefined>>;
  /** The package's `web/` folder: the page. */
  pageRoot: string;
  listModels: () => Promise<ListedModel[]>;
  version: string;
}

export interface WebServer {
  url: string;
  port: number;
  close(): Promise<void>;
}

const SECURITY_HEADERS = {
  "Content-Security-Policy": "default-src 'self'; img-src 'self' data:; frame-ancestors 'none'; base-uri 'none'; form-action 'self'",
  "X-Content-Type-Options": "nosniff",
  "Referrer-Policy": "no-referrer",
  "Cache-Control": "no-store",
};

/**
 * `agentwire web`: one HTTP server that runs sessions through the library API, streams their
 * events to the page over Server-Sent Events, and takes the page's messages, interrupts and
 * permission answers. Several sessions run at once, each its own `query()` with its own cwd.
 * What each request does is in the route table (routes.ts); this is the server around it.
 */
export async function startWebServer(options: WebServerOptions): Promise<WebServer> {
  const roots = options.roots.map((root) => realpathSync(root));
  const sessions = new WebSessions({ cwd: options.cwd, roots, defaults: options.defaults, env: options.env });
  const state: WebServerState = {
    sessions,
    page: new StaticFiles(options.pageRoot),
    info: async () => ({
      cwd: realpathSync(options.cwd),
      roots,
      defaults: options.defaults,
      models: await options.listModels(),
      version: options.version,
    }),
  };
  let policy: AccessPolicy | undefined;

  const server = createServer((request, response) => {
    for (const [name, value] of Object.entries(SECURITY_HEADERS)) response.setHeader(name, value);
    void answer(request, response).catch((error: unknown) => {
      const status = error instanceof HttpError ? error.status : 500;
      if (!response.headersSent)
        sendJson(response, status, { error: status === 500 ? `Internal error: ${(error as Error).message}` : (error as Error).message });
      else response.end();
    });
  });

  async function answer(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const url = new URL(request.url ?? "/", "http://agentwire.invalid");
    // The page's own files load without the token (it arrives in the page's address); everything else needs it.
    const access = checkAccess(request, url, policy!, isPageFile(url));
    if (!access.allowed) return sendJson(response, access.status, { error: access.error });
    return dispatch(request, response, url, state);
  }

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port, options.host, () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  policy = { token: options.token, boundHost: options.host, port };
  const shownHost = isWildcardHost(options.host) ? "127.0.0.1" : options.host.includes(":") ? `[${options.host}]` : options.host;
  return {
    url: `http://${shownHost}:${port}/?token=${options.token}`,
    port,
    close: async () => {
      const closing = sessions.closeAll();
      server.closeAllConnections();
      await closing;
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

function isPageFile(url: URL): boolean {
  return url.pathname === "/" || url.pathname === "/index.html" || url.pathname.split("/").filter(Boolean)[0] === "assets";
}
