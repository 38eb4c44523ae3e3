import { describe, expect, it } from "vitest";
import { childEnvironment, filterChildEnvironment, isCredentialName, isCredentialValue } from "../../src/process/child-environment.js";

describe("isCredentialName", () => {
  it.each([
    // Provider keys and tokens agentwire itself reads.
    "ANTHROPIC_API_KEY",
    "ANTHROPIC_AUTH_TOKEN",
    "OPENAI_API_KEY",
    "GEMINI_API_KEY",
    "GOOGLE_API_KEY",
    "CLAUDE_CODE_OAUTH_TOKEN",
    // Names an independent attack found passing.
    "LDAP_BIND_PW",
    "DB_PW",
    "SSH_PRIVKEY",
    "WALLET_MNEMONIC",
    "KEYSTORE_PIN",
    "OAUTH",
    "SESSIONID",
    "AWS_BEARER_TOKEN_BEDROCK",
    // Cloud credentials.
    "AWS_ACCESS_KEY_ID",
    "AWS_SECRET_ACCESS_KEY",
    "AWS_SESSION_TOKEN",
    "AWS_SHARED_CREDENTIALS_FILE",
    "AWS_WEB_IDENTITY_TOKEN_FILE",
    "GOOGLE_APPLICATION_CREDENTIALS",
    "AZURE_CLIENT_SECRET",
    "AZURE_CLIENT_CERTIFICATE_PASSWORD",
    "AZURE_OPENAI_API_KEY",
    "AZURE_STORAGE_CONNECTION_STRING",
    "AZURE_STORAGE_SAS_TOKEN",
    "ARM_ACCESS_KEY",
    // Forges, registries and services.
    "GH_TOKEN",
    "GITHUB_TOKEN",
    "GITHUB_PAT",
    "GITLAB_PRIVATE_TOKEN",
    "CI_JOB_TOKEN",
    "NPM_TOKEN",
    "NODE_AUTH_TOKEN",
    "npm_config__auth",
    "npm_config__authToken",
    "TWINE_PASSWORD",
    "CARGO_REGISTRY_TOKEN",
    "DOCKER_AUTH_CONFIG",
    "HF_TOKEN",
    "VAULT_TOKEN",
    "SENTRY_DSN",
    "SLACK_WEBHOOK_URL",
    "STRIPE_SECRET_KEY",
    "JWT_SECRET",
    "OTEL_EXPORTER_OTLP_HEADERS",
    "ANTHROPIC_CUSTOM_HEADERS",
    "BW_SESSION",
    "OP_SESSION_myteam",
    // Databases and glued or camel-cased spellings.
    "PGPASSWORD",
    "MYSQL_PWD",
    "DB_PASS",
    "REDIS_PASSWD",
    "SSH_KEY_PASSPHRASE",
    "clientSecret",
    "myApiKey",
    "SERVICEAPIKEY",
    "TOKEN",
  ])("%s is a credential", (name) => {
    expect(isCredentialName(name)).toBe(true);
  });

  it.each([
    "PATH",
    "HOME",
    "PWD",
    "OLDPWD",
    "SHELL",
    "LANG",
    "TERM",
    "TMPDIR",
    "USER",
    "ANTHROPIC_BASE_URL",
    "OPENAI_BASE_URL",
    "GOOGLE_CLOUD_PROJECT",
    "AWS_REGION",
    "AWS_PROFILE",
    "AZURE_CLIENT_ID",
    "AZURE_TENANT_ID",
    "AGENTWIRE_HOME",
    "MCP_TIMEOUT",
    "CLAUDE_CODE_MAX_OUTPUT_TOKENS",
    "MAX_THINKING_TOKENS",
    "TOKENIZERS_PARALLELISM",
    "GIT_AUTHOR_NAME",
    "GIT_ASKPASS",
    "SSH_ASKPASS",
    "SSH_AUTH_SOCK",
    "GIT_CONFIG_KEY_0",
    "GIT_CONFIG_COUNT",
    "XAUTHORITY",
    "NODE_EXTRA_CA_CERTS",
    "KUBECONFIG",
    "LESSKEY",
    "PYTHON_KEYRING_BACKEND",
  ])("%s is not", (name) => {
    expect(isCredentialName(name)).toBe(false);
  });
});

describe("isCredentialValue", () => {
  it.each([
    "sk-ant-api03-AbCdEf0123456789_-AbCdEf0123456789",
    "ghp_0123456789abcdefghijABCDEFGHIJ012345",
    "AKIAIOSFODNN7EXAMPLE",
    "postgres://app:hunter2@db.internal:5432/app",
    "http://me:p%40ss@proxy.corp:3128",
    "redis://:pw@h",
    "--extra-index-url https://__token__:pypi-AgEIcHlwaS5vcmc@pypi.example/simple",
  ])("%s holds one", (value) => {
    expect(isCredentialValue(value)).toBe(true);
  });

  it.each([
    "/usr/local/bin:/usr/bin:/bin",
    "postgres://localhost/app",
    "ssh://git@github.com/o/r.git",
    "git@github.com:o/r.git",
    "http://proxy.corp:3128",
    "en_US.UTF-8",
  ])("%s does not", (value) => {
    expect(isCredentialValue(value)).toBe(false);
  });
});

describe("filterChildEnvironment", () => {
  const env = {
    PATH: "/usr/bin:/bin",
    HOME: "/home/u",
    ANTHROPIC_API_KEY: "sk-ant-api03-AbCdEf0123456789_-AbCdEf0123456789",
    GITHUB_TOKEN: "ghp_0123456789abcdefghijABCDEFGHIJ012345",
    // A key under a name no rule knows: its value gives it away.
    DEPLOY_THING: "sk-proj-AbCdEf0123456789AbCdEf0123456789",
    DATABASE_URL: "postgres://app:hunter2@db/app",
    UNSET: undefined,
  };

  it("keeps the rest, drops undefined entries, and names what it removed", () => {
    expect(filterChildEnvironment(env)).toEqual({
      env: { PATH: "/usr/bin:/bin", HOME: "/home/u" },
      removed: ["ANTHROPIC_API_KEY", "GITHUB_TOKEN", "DEPLOY_THING", "DATABASE_URL"],
    });
  });

  it("passes exactly the names given on purpose, whatever they hold", () => {
    expect(childEnvironment(env, ["GITHUB_TOKEN", "DATABASE_URL", "NOT_SET"])).toEqual({
      PATH: "/usr/bin:/bin",
      HOME: "/home/u",
      GITHUB_TOKEN: env.GITHUB_TOKEN,
      DATABASE_URL: env.DATABASE_URL,
    });
  });

  it("returns a new object and leaves its input alone", () => {
    const input = { ...env };
    const first = childEnvironment(input);
    first.EXTRA = "1";
    expect(childEnvironment(input)).not.toHaveProperty("EXTRA");
    expect(input).toEqual(env);
  });
});
