// The import layers of the repository as one table, and the two eslint rules that hold them:
// `layers/imports` checks every way a module names another (static imports, type imports, re-exports,
// `import()`, `require()`, `import x = require()`, `import('…').Type`, jest's module mocks), and
// `layers/environment` keeps `process.env` inside each workspace's one config module.
// See: [Note: Import layers]
//
// [Note: Import layers]
// A file belongs to the workspace it sits in (packages/<name>, apps/<name>, e2e, bench, scripts,
// config, or the repository root) and that workspace has a layer. A file may import its own workspace
// and the layers its layer lists in `layers`, nothing else of ours. Crossing into another workspace
// goes through its package name (`@ente/shared/…`); a relative path may only cross into the tooling
// folders (scripts, config), which have no package name. Some third-party modules belong to one layer
// only (libsodium and the SRP library to crypto). A `testing/` folder holds test helpers: only test
// code (test files, other testing/ files, the browser tests) may import it. A specifier that is not
// written out (a variable, a template with no fixed folder) cannot be checked and is refused.
import { builtinModules } from 'node:module';
import path from 'node:path';

export const repositoryRoot = path.resolve(import.meta.dirname, '..');

/** Who may import whom: each layer, and the layers it may import besides its own workspace. */
export const layers = {
  protocol: [],
  crypto: [],
  shared: ['protocol', 'crypto'],
  accounts: ['shared', 'protocol', 'crypto'],
  app: ['accounts', 'shared', 'protocol', 'crypto'],
  server: ['protocol', 'crypto'],
  e2e: ['scripts', 'protocol', 'crypto'],
  // The benchmarks are real clients: they sign in with the apps' own SRP and protocol code.
  bench: ['scripts', 'e2e', 'protocol', 'crypto'],
  scripts: [],
  config: [],
  // Tool configuration files (jest.config.cjs, next.config.mjs, eslint.config.mjs, …) wherever they are.
  tooling: ['config'],
  root: [],
};

/** Layers that test code of a layer may import besides the table's (a throwaway PostgreSQL for the server suite). */
export const testOnlyLayers = {
  server: ['scripts'],
};

/** Restricted modules that the test code of another layer may import too (the SRP oracle of the server's native SRP). */
export const testOnlyModules = {
  'fast-srp-hap': ['server'],
  // The browser tests' independent reader of the photos app's uploads (e2e/photos-oracle.ts), and the server's
  // cast test playing the screen: libsodium with none of our crypto code between it and the ciphertext.
  'libsodium-wrappers-sumo': ['e2e', 'server'],
};

/** Third-party modules that only one layer may import. */
export const restrictedModules = {
  'libsodium-wrappers': 'crypto',
  'libsodium-wrappers-sumo': 'crypto',
  'fast-srp-hap': 'crypto',
  '@scure/bip39': 'crypto',
  '@noble/hashes': 'crypto',
  'hash-wasm': 'crypto',
};

/** Our package names and the workspace folder each stands for. */
const packageFolders = {
  '@ente/protocol': 'packages/protocol',
  '@ente/crypto': 'packages/crypto',
  '@ente/shared': 'packages/shared',
  '@ente/accounts': 'packages/accounts',
  '@ente/server': 'apps/server',
  '@ente/app-auth': 'apps/auth',
  '@ente/app-accounts': 'apps/accounts',
  '@ente/app-photos': 'apps/photos',
  '@ente/app-cast': 'apps/cast',
  '@ente/e2e': 'e2e',
  '@ente/bench': 'bench',
};

/** The only files of each workspace that may read the process environment (besides test files). */
export const environmentModules = [
  'packages/shared/src/config.ts',
  'apps/server/src/config.ts',
  'e2e/config.ts',
  'bench/config.mjs',
  'scripts/config.mjs',
];

/**
 * Where a repository path belongs: its workspace folder and that workspace's layer. Paths are
 * relative to the repository root, with forward slashes.
 */
export function locate(relativePath) {
  const [top, second, ...rest] = relativePath.split('/');
  const nested = second !== undefined && rest.length > 0;
  if (top === 'packages' && nested) return { workspace: `packages/${second}`, layer: second };
  if (top === 'apps' && nested) return { workspace: `apps/${second}`, layer: second === 'server' ? 'server' : 'app' };
  if (second !== undefined && ['e2e', 'bench', 'scripts', 'config'].includes(top))
    return { workspace: top, layer: top };
  return { workspace: '.', layer: 'root' };
}

/** The layer a file imports as: its workspace's, except that tool configuration files are `tooling`. */
export function importerLayer(relativePath) {
  const name = relativePath.split('/').at(-1) ?? '';
  const toolConfiguration = /\.config\.(?:[cm]?js|ts)$/.test(name) || /^jest\.config\.c?js$/.test(name);
  return toolConfiguration ? 'tooling' : locate(relativePath).layer;
}

/** Test code: test files, testing/ folders, type declarations of test globals, and the browser tests. */
export function isTestCode(relativePath) {
  return (
    /\.(?:test|spec)\.[cm]?[jt]sx?$/.test(relativePath) ||
    relativePath.split('/').includes('testing') ||
    /(?:^|\/)jest-globals\.d\.ts$/.test(relativePath) ||
    relativePath.startsWith('e2e/')
  );
}

const nodeBuiltins = new Set(builtinModules);

/**
 * What a module specifier names, seen from `fromFile` (absolute): one of our files (its repository
 * path), a package (its name), or `undefined` when the text does not fix a module.
 */
export function resolveSpecifier(specifier, fromFile) {
  if (specifier.startsWith('./') || specifier.startsWith('../') || specifier === '.' || specifier === '..') {
    const absolute = path.resolve(path.dirname(fromFile), specifier);
    const relative = path.relative(repositoryRoot, absolute).split(path.sep).join('/');
    if (relative.startsWith('..')) return { outside: specifier };
    return { file: relative, relativeSpecifier: true };
  }
  const name = packageName(specifier);
  const folder = packageFolders[name];
  if (folder !== undefined) {
    const rest = specifier.slice(name.length).replace(/^\//, '');
    const inPackage = folder.startsWith('packages/') ? `src/${rest || 'index.ts'}` : rest || 'package.json';
    const packagePath = `${folder}/${inPackage}`;
    return { file: packagePath, relativeSpecifier: false };
  }
  return { module: name };
}

function packageName(specifier) {
  const bare = specifier.replace(/^node:/, '');
  const parts = bare.split('/');
  return bare.startsWith('@') ? parts.slice(0, 2).join('/') : (parts[0] ?? bare);
}

/** Why `fromPath` (repository path) may not import `target` (from resolveSpecifier), or undefined if it may. */
export function refusal(fromPath, target, specifier) {
  const from = { ...locate(fromPath), layer: importerLayer(fromPath) };
  if (target.outside !== undefined) return `${specifier} leaves the repository.`;
  if (target.module !== undefined) {
    const owner = restrictedModules[target.module];
    const testedElsewhere = isTestCode(fromPath) && (testOnlyModules[target.module] ?? []).includes(from.layer);
    if (owner !== undefined && from.layer !== owner && !testedElsewhere) {
      return `Only the ${owner} layer may import ${target.module}; go through @ente/${owner}.`;
    }
    return undefined;
  }
  const to = locate(target.file);
  if (target.file.split('/').includes('testing') && !isTestCode(fromPath)) {
    return `${specifier} is a test helper (a testing/ folder); production code may not import it.`;
  }
  if (to.workspace === from.workspace) return undefined;
  if (target.relativeSpecifier && (to.workspace.startsWith('packages/') || to.workspace.startsWith('apps/'))) {
    return `${specifier} leaves the workspace ${from.workspace} by a relative path; import ${to.workspace} by its package name.`;
  }
  const allowed = [...layers[from.layer], ...(isTestCode(fromPath) ? (testOnlyLayers[from.layer] ?? []) : [])];
  if (allowed.includes(to.layer)) return undefined;
  if (to.layer === 'app' && from.layer === 'app') return `An app never imports another app (${specifier}).`;
  return `The ${from.layer} layer (${from.workspace}) may not import the ${to.layer} layer (${specifier}); see the layer table in config/eslint-layers.mjs.`;
}

/** The text of a specifier node when it fixes a module: a string, or a template whose fixed start names a folder. */
function specifierText(node) {
  if (node?.type === 'Literal' && typeof node.value === 'string') return node.value;
  if (node?.type === 'TemplateLiteral') {
    const start = node.quasis[0]?.value.cooked ?? '';
    if (node.expressions.length === 0) return start;
    // `./locales/${locale}.json` still names the folder ./locales; a template that starts with its
    // variable part names nothing.
    const folder = start.slice(0, start.lastIndexOf('/') + 1);
    if (folder === '' || folder === './' || folder === '../') return undefined;
    return folder;
  }
  return undefined;
}

const importsRule = {
  meta: {
    type: 'problem',
    docs: { description: 'Imports follow the layer table of config/eslint-layers.mjs.' },
    schema: [],
    messages: {
      refused: '{{reason}}',
      unchecked: 'This module name is not written out, so its layer cannot be checked; write it out as a string.',
    },
  },
  create(context) {
    const fromFile = context.filename;
    const fromPath = path.relative(repositoryRoot, fromFile).split(path.sep).join('/');
    if (fromPath.startsWith('..')) return {};

    const check = (specifierNode, reportNode = specifierNode) => {
      if (!specifierNode) return;
      const specifier = specifierText(specifierNode);
      if (specifier === undefined) {
        context.report({ node: reportNode, messageId: 'unchecked' });
        return;
      }
      if (nodeBuiltins.has(specifier) || specifier.startsWith('node:')) return;
      const reason = refusal(fromPath, resolveSpecifier(specifier, fromFile), specifier);
      if (reason !== undefined) context.report({ node: reportNode, messageId: 'refused', data: { reason } });
    };
    const isJestModuleCall = (callee) =>
      callee.type === 'MemberExpression' &&
      callee.object.type === 'Identifier' &&
      callee.object.name === 'jest' &&
      callee.property.type === 'Identifier' &&
      ['mock', 'doMock', 'unmock', 'requireActual', 'requireMock'].includes(callee.property.name);

    return {
      ImportDeclaration: (node) => check(node.source),
      ExportNamedDeclaration: (node) => node.source && check(node.source),
      ExportAllDeclaration: (node) => check(node.source),
      ImportExpression: (node) => check(node.source, node),
      TSImportType: (node) => check(node.argument.type === 'TSLiteralType' ? node.argument.literal : node.argument),
      TSExternalModuleReference: (node) => check(node.expression),
      CallExpression(node) {
        const { callee } = node;
        const isRequire = callee.type === 'Identifier' && callee.name === 'require';
        if (!isRequire && !isJestModuleCall(callee)) return;
        const [first] = node.arguments;
        if (first === undefined) return;
        check(first, node);
      },
    };
  },
};

const processModules = new Set(['process', 'node:process']);

const environmentRule = {
  meta: {
    type: 'problem',
    docs: { description: "Only a workspace's config module reads process.env (test files may set it up)." },
    schema: [],
    messages: {
      environment:
        "Read the environment only in the workspace's config module ({{modules}}); take the value from there.",
    },
  },
  create(context) {
    const fromPath = path.relative(repositoryRoot, context.filename).split(path.sep).join('/');
    if (environmentModules.includes(fromPath) || /\.test\.[cm]?[jt]sx?$/.test(fromPath)) return {};
    const report = (node) =>
      context.report({ node, messageId: 'environment', data: { modules: environmentModules.join(', ') } });
    // Names that stand for the process object: the global, and imports of node:process.
    const processNames = new Set(['process']);
    const isProcess = (node) =>
      (node.type === 'Identifier' && processNames.has(node.name)) ||
      (node.type === 'MemberExpression' &&
        node.object.type === 'Identifier' &&
        node.object.name === 'globalThis' &&
        propertyName(node) === 'process');

    return {
      ImportDeclaration(node) {
        if (!processModules.has(node.source.value)) return;
        for (const specifier of node.specifiers) {
          if (specifier.type === 'ImportSpecifier') {
            const imported =
              specifier.imported.type === 'Identifier' ? specifier.imported.name : specifier.imported.value;
            if (imported === 'env') report(specifier);
          } else {
            processNames.add(specifier.local.name);
          }
        }
      },
      MemberExpression(node) {
        if (propertyName(node) === 'env' && isProcess(node.object)) report(node);
      },
      VariableDeclarator(node) {
        if (node.id.type !== 'ObjectPattern' || !node.init || !isProcess(node.init)) return;
        for (const property of node.id.properties) {
          if (property.type === 'Property' && propertyName({ ...property, property: property.key }) === 'env') {
            report(property);
          }
        }
      },
    };
  },
};

function propertyName(node) {
  const { property, computed } = node;
  if (!computed && property.type === 'Identifier') return property.name;
  if (property.type === 'Literal') return String(property.value);
  return undefined;
}

/** The eslint plugin: `layers/imports` and `layers/environment`. */
export const layersPlugin = {
  meta: { name: 'layers' },
  rules: { imports: importsRule, environment: environmentRule },
};
