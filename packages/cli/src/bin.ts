#!/usr/bin/env node
/*
 * The entry point, kept parseable by any Node: no static imports, no syntax newer than ES5 apart from the
 * dynamic import. An older Node stops here with one line saying what to install, instead of a stack trace
 * from deep inside a dependency. The program itself (run.ts) is imported only once the version is right.
 */
var found = process.versions.node;
var parts = found.split('.');
var major = Number(parts[0]);
var minor = Number(parts[1]);
var builtin: { enableCompileCache?: () => unknown } | undefined;
if (major < 22 || (major === 22 && minor < 18)) {
  process.stderr.write(
    'travel: Node 22.18 or newer is needed (found ' +
      found +
      '); install it with ' +
      '`nvm install 22` (or `fnm install 22`, `volta install node@22`), or from https://nodejs.org\n',
  );
  process.exitCode = 1;
} else {
  // Start-up: V8's compiled code of the CLI and its dependencies is cached on disk after the first run
  // (NODE_DISABLE_COMPILE_CACHE=1 turns it off). Enabled before anything else loads.
  builtin = process.getBuiltinModule && process.getBuiltinModule('node:module');
  if (builtin && builtin.enableCompileCache) builtin.enableCompileCache();
  import('./run.ts');
}
