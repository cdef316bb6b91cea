/**
 * The one-way dependency rules of reference/ARCHITECTURE.md, enforced in `npm test`.
 * Layers (low → high): errors → config, json → observability, iceberg → storage → cache, commits →
 * planner | tokens | catalogs | auth (siblings) → service → http → main/cli.
 */
const layers = ['errors', 'config', 'json', 'observability', 'iceberg', 'storage', 'cache', 'commits', 'planner', 'tokens', 'catalogs', 'auth', 'service', 'http'];
const rank = { errors: 0, config: 1, json: 1, observability: 2, iceberg: 2, storage: 3, cache: 4, commits: 4, planner: 5, tokens: 5, catalogs: 5, auth: 5, service: 6, http: 7 };

const upward = [];
for (const from of layers) {
  const higher = layers.filter((to) => rank[to] > rank[from] || (rank[to] === rank[from] && to !== from));
  if (higher.length === 0) continue;
  upward.push({
    name: `no-up-${from}`,
    comment: `${from}/ may not import ${higher.join(', ')} (imports point down; siblings stay apart)`,
    severity: 'error',
    from: { path: `^src/${from}/` },
    to: { path: `^src/(${higher.join('|')})/` },
  });
}

/** A package only the files under `allowed` may import. */
function privateTo(name, pkg, allowed, comment) {
  return { name, comment, severity: 'error', from: { path: '^src/', pathNot: allowed }, to: { path: `node_modules/${pkg}/` } };
}

module.exports = {
  forbidden: [
    { name: 'no-circular', severity: 'error', from: {}, to: { circular: true } },
    ...upward,
    {
      name: 'http-not-planner-storage',
      comment: 'http/ never touches planner/ or storage/ (ARCHITECTURE.md)',
      severity: 'error',
      from: { path: '^src/http/' },
      to: { path: '^src/(planner|storage|tokens|cache)/' },
    },
    {
      name: 'engine-below-protocol',
      comment: 'service/engine (the planning engine) knows nothing of service/planning (the REST protocol over it)',
      severity: 'error',
      from: { path: '^src/service/engine/' },
      to: { path: '^src/service/(planning/|[^/]+\\.ts$)' },
    },
    {
      name: 'no-main-import',
      comment: 'nothing but the CLI imports the composition root',
      severity: 'error',
      from: { path: '^src/', pathNot: ['^src/cli\\.ts$', '^src/cli-plan\\.ts$'] },
      to: { path: '^src/(main|cli)\\.ts$' },
    },
    {
      name: 'index-only-across-folders',
      comment: 'cross-folder imports go through the folder index.ts',
      severity: 'error',
      from: { path: '^src/([^/]+)/' },
      to: { path: '^src/([^/]+)/.+', pathNot: ['^src/$1/', '^src/[^/]+/index\\.ts$', '^src/catalogs/[^/]+/index\\.ts$', '^src/planner/[^/]+/index\\.ts$'] },
    },
    privateTo('one-way-to-an-upstream', 'undici', ['^src/catalogs/rest/', '^src/http/token-route\\.ts$'],
      "an upstream catalog is reached through its transport only (catalogs/rest http-client.ts: one pool, deadline and failure mapping; issue #30); undici elsewhere is the identity provider's token relay alone"),
    privateTo('http-proxy-3-private-to-proxy', 'http-proxy-3', ['^src/http/proxy/'], 'http-proxy-3 stays inside http/proxy (the pass-through engine, fed by the upstream transport)'),
    privateTo('avsc-private-to-manifests', 'avsc', ['^src/planner/manifests/'], 'avsc stays inside planner/manifests'),
    privateTo('pg-private-to-postgres-driver', 'pg', ['^src/catalogs/sql/postgres-driver\\.ts$'], 'PostgreSQL is reached through catalogs/sql/postgres-driver.ts only (one pool, scrubbed errors)'),
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { extensions: ['.ts', '.js'] },
  },
};
