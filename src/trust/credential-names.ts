/**
 * Environment variable names that usually hold a secret: API keys and tokens, passwords,
 * private keys, cloud credentials, connection strings. An untrusted project file asking for
 * `${ANTHROPIC_API_KEY}` in a server's URL or header would send the key wherever the file says;
 * such names are not expanded from it. Errs toward withholding: a name that only looks like a
 * secret costs an untrusted file a value, a secret that slipped through costs the user the secret.
 */
const SECRET_WORDS = /(^|_)(KEYS?|TOKENS?|SECRETS?|PASSWORDS?|PASSWD|PASSPHRASE|PASS|CREDENTIALS?|CREDS|AUTH|AUTHORIZATION|COOKIES?|SESSION|PRIVATE|CERT|DSN|SIGNATURE|SALT)(_|$)/;
/** Words that mean a secret even inside a longer word (`APIKEY`, `CLIENTSECRET`, `DBPASSWORD`). */
const SECRET_FRAGMENTS = /SECRET|PASSWORD|PASSWD|APIKEY|TOKEN|CREDENTIAL|PRIVATE_?KEY/;
/** Whole families of credentials: cloud providers, CI and package registries, databases. */
const SECRET_PREFIXES = /^(AWS|AZURE|ARM|GOOGLE|GCP|GCLOUD|CLOUDSDK|GH|GITHUB|GITLAB|NPM|PYPI|TWINE|DOCKER|HF|HUGGING_?FACE|VAULT|DATABASE|DB|PG|MYSQL|MONGO|REDIS)_/;
/** Connection strings carry their password in the URL. */
const SECRET_SUFFIXES = /_(URL|URI|CONNECTION_STRING)$/;
const CONNECTION_OWNERS = /^(DATABASE|DB|PG|POSTGRES|POSTGRESQL|MYSQL|MONGO|MONGODB|REDIS|AMQP|RABBITMQ|KAFKA|ELASTICSEARCH|SENTRY)_/;

export function looksLikeCredential(name: string): boolean {
  const upper = name.toUpperCase();
  if (SECRET_WORDS.test(upper) || SECRET_FRAGMENTS.test(upper) || SECRET_PREFIXES.test(upper)) return true;
  return SECRET_SUFFIXES.test(upper) && CONNECTION_OWNERS.test(upper);
}
