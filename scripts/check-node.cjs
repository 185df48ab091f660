// `pnpm start` / `pnpm test` run this first: an older Node stops here with one line saying what to install,
// instead of ERR_UNKNOWN_FILE_EXTENSION from the TypeScript sources. ES5 on purpose (any Node parses it).
var found = process.versions.node;
var parts = found.split('.');
var major = Number(parts[0]);
var minor = Number(parts[1]);
if (major < 22 || (major === 22 && minor < 18)) {
  process.stderr.write(
    'Node 22.18 or newer is needed (found ' +
      found +
      '); install it with `nvm install 22` ' +
      '(or `fnm install 22`, `volta install node@22`), or from https://nodejs.org\n',
  );
  process.exit(1);
}
