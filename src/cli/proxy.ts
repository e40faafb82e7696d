import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Option } from 'commander';
import { CapabilityRuntime, type RuntimeOptions } from '@json-tool-contracts/runtime';
import { mcpHttpHandler, mcpNodeListener, type McpHttpHandler } from '@json-tool-contracts/runtime/mcp/http';
import { mcpStdioServer, proxyTools, type DriftPolicy, type ProxyReport, type UncontractedPolicy } from '@json-tool-contracts/runtime/mcp/proxy';
import { escapeForTerminal } from '../diagnostics/diagnostic.js';
import { UsageError } from '../diagnostics/usage-error.js';
import { loadGatewayContracts } from '../proxy/contracts.js';
import { upstreamDrift, verdictOf } from '../proxy/drift.js';
import { outputLearner, type LearnOptions } from '../proxy/learn.js';
import { connectUpstream, type UpstreamSource } from '../proxy/upstream.js';
import { version } from '../version.js';
import type { CliCommand } from './command.js';
import { headersOf, timeoutOf } from './import.js';

/** Where the gateway serves: HTTP on an address, or stdio for a local agent. */
export type ProxyServe = { readonly kind: 'http'; readonly host: string; readonly port: number } | { readonly kind: 'stdio' };

export interface ProxyCommandOptions {
  readonly contracts: string;
  readonly upstream: UpstreamSource;
  readonly headers: Readonly<Record<string, string>>;
  readonly timeoutMs: number;
  readonly serve: ProxyServe;
  readonly onDrift: DriftPolicy;
  readonly uncontracted: UncontractedPolicy;
  readonly budgets: Readonly<Record<string, number>>;
  /** A Redis URL: the store every replica of the gateway shares (budgets, deferred calls, requestState claims). */
  readonly redis?: string;
  readonly otel: boolean;
  readonly learn?: LearnOptions;
}

/** The longest message read from the upstream: a stdio line, an HTTP body, one event of a stream. */
const maxUpstreamMessageBytes = 16 * 1024 * 1024;

interface ProxyFlags {
  readonly stdio?: string;
  readonly url?: string;
  readonly header: readonly string[];
  readonly timeout: string;
  readonly listen?: string;
  readonly onDrift: DriftPolicy;
  readonly uncontracted: UncontractedPolicy;
  readonly budget: readonly string[];
  readonly redis?: string;
  readonly otel?: boolean;
  readonly learn?: string;
  readonly learnSamples: string;
  readonly learnBytes: string;
  readonly learnArguments?: boolean;
}

export function proxyOptionsOf(contracts: string, flags: ProxyFlags): ProxyCommandOptions {
  if ((flags.stdio === undefined) === (flags.url === undefined)) throw new UsageError('proxy: name the upstream: --stdio "<command>" or --url <endpoint> (jtc proxy --help)');
  let upstream: UpstreamSource;
  if (flags.stdio !== undefined) upstream = { kind: 'stdio', command: flags.stdio };
  else {
    const url = URL.canParse(flags.url!) ? new URL(flags.url!) : undefined;
    if (url === undefined || (url.protocol !== 'http:' && url.protocol !== 'https:')) throw new UsageError(`--url takes an http or https URL, not ${flags.url}`);
    upstream = { kind: 'url', url };
  }
  const budgets: Record<string, number> = {};
  for (const entry of flags.budget) {
    const match = /^(.+)=(\d+)$/.exec(entry);
    if (match === null || !Number.isSafeInteger(Number(match[2]))) throw new UsageError(`--budget takes <tool>=<calls>, not "${entry}"`);
    budgets[match[1]!] = Number(match[2]);
  }
  const learn = flags.learn === undefined ? undefined : { dir: flags.learn, maxSamples: wholeNumber('--learn-samples', flags.learnSamples), maxSampleBytes: wholeNumber('--learn-bytes', flags.learnBytes), withArguments: flags.learnArguments === true };
  return {
    contracts,
    upstream,
    headers: headersOf(flags.header),
    timeoutMs: timeoutOf(flags.timeout),
    serve: flags.listen === undefined ? { kind: 'stdio' } : listenOf(flags.listen),
    onDrift: flags.onDrift,
    uncontracted: flags.uncontracted,
    budgets,
    ...(flags.redis === undefined ? {} : { redis: flags.redis }),
    otel: flags.otel === true,
    ...(learn === undefined ? {} : { learn }),
  };
}

function wholeNumber(flag: string, text: string): number {
  const value = /^\d+$/.test(text) ? Number(text) : Number.NaN;
  if (!Number.isSafeInteger(value) || value < 1) throw new UsageError(`${flag} takes a whole number above 0, not "${text}"`);
  return value;
}

/** `--listen [host:]port`: loopback unless a host is named; port 0 takes a free one. */
function listenOf(text: string): ProxyServe {
  const match = /^(?:(.+):)?(\d+)$/.exec(text);
  const port = match === null ? Number.NaN : Number(match[2]);
  if (match === null || !(port >= 0 && port <= 65_535)) throw new UsageError(`--listen takes [host:]port, not "${text}"`);
  return { kind: 'http', host: match[1]?.replace(/^\[(.*)\]$/, '$1') ?? '127.0.0.1', port };
}

const loopback = new Set(['127.0.0.1', 'localhost', '::1']);

/** The report of a listing on stderr: every tool that is not simply served, then the counts. */
function reportLines(report: ProxyReport): string {
  const count = (status: string) => report.tools.filter((tool) => tool.status === status).length;
  const lines = report.tools.filter((tool) => tool.status !== 'served').map((tool) => escapeForTerminal(`jtc proxy: ${JSON.stringify(tool.name)}: ${tool.status}${tool.message === undefined ? '' : ` (${tool.message})`}`));
  lines.push(`jtc proxy: ${report.tools.length} tools: ${count('served')} served, ${count('drifted')} drifted (served with a warning), ${count('refused')} refused, ${count('missing')} missing upstream, ${count('unchecked')} unchecked, ${count('uncontracted')} without a contract (not served)`);
  return `${lines.join('\n')}\n`;
}

/**
 * Starts the gateway and serves until it is told to stop (SIGINT, SIGTERM; with stdio, the end of
 * the input). Resolves with the exit code.
 */
export async function runProxy(options: ProxyCommandOptions, log: (text: string) => void = (text) => void process.stderr.write(text)): Promise<number> {
  const { contracts, sources } = await loadGatewayContracts(options.contracts);
  const closing: (() => Promise<void>)[] = [];
  const close = async () => {
    for (const step of closing.reverse()) await step().catch(() => undefined);
  };
  try {
    const runtimeOptions: { -readonly [K in keyof RuntimeOptions]: RuntimeOptions[K] } = {};
    if (options.redis !== undefined) {
      const { connectRedisStore } = await import('@json-tool-contracts/runtime/redis');
      let outage = false;
      const redis = await connectRedisStore({
        url: options.redis,
        onError: (error) => {
          if (!outage) log(`jtc proxy: Redis is unreachable (${error.message}): budgeted calls are denied with store_unavailable until it is back\n`);
          outage = true;
        },
      }).catch((error: Error) => {
        throw new UsageError(`--redis: ${error.message}`);
      });
      closing.push(() => redis.close());
      runtimeOptions.store = redis.store;
    }
    if (options.otel) {
      const { otelCallObserver } = await import('@json-tool-contracts/runtime/otel').catch(() => {
        throw new UsageError('--otel needs @opentelemetry/api: npm install @opentelemetry/api (and an OpenTelemetry SDK set up in the process)');
      });
      runtimeOptions.observer = otelCallObserver();
    }
    const runtime = new CapabilityRuntime(runtimeOptions);
    const upstream = await connectUpstream(options.upstream, { headers: options.headers, timeoutMs: options.timeoutMs, maxMessageBytes: maxUpstreamMessageBytes, onClose: () => log(`jtc proxy: ${upstream.label} closed: its tools' calls fail until the gateway is started again\n`) });
    closing.push(() => upstream.close());
    const learner = options.learn === undefined ? undefined : outputLearner(options.learn);
    const drift = upstreamDrift(sources, options.contracts);
    await proxyTools(runtime, upstream.client as never, contracts, {
      drift: (listed) => drift(listed).map(verdictOf),
      onDrift: options.onDrift,
      uncontracted: options.uncontracted,
      budgets: options.budgets,
      timeoutMs: options.timeoutMs,
      onReport: (report) => log(reportLines(report)),
      onRefreshFailed: (error) => log(`jtc proxy: listing ${upstream.label} again after tools/list_changed failed (the last listing's policies stay): ${escapeForTerminal(error instanceof Error ? error.message : String(error))}\n`),
      ...(learner === undefined ? {} : { onSample: learner.onSample }),
    }).catch((error: unknown) => {
      throw error instanceof RangeError ? new UsageError(error.message) : new UsageError(`${upstream.label}: listing its tools failed: ${(error as Error).message}`);
    });
    const requestStateKey = process.env['MCP_REQUEST_STATE_KEY'];
    const serverInfo = { name: 'jtc-proxy', version };
    const common = { serverInfo, ...(requestStateKey === undefined || requestStateKey === '' ? {} : { requestState: { key: requestStateKey } }) };
    if (options.serve.kind === 'stdio') {
      const handler = mcpHttpHandler(runtime, common);
      closing.push(async () => handler.close());
      await mcpStdioServer(handler, process.stdin, process.stdout).closed;
      return 0;
    }
    const { host, port } = options.serve;
    let handler: McpHttpHandler | undefined;
    const server = createServer((incoming, outgoing) => mcpNodeListener(handler!)(incoming, outgoing));
    await new Promise<void>((resolve, reject) => {
      server.once('error', (error) => reject(new UsageError(`--listen ${host}:${port}: ${error.message}`)));
      server.listen(port, host, resolve);
    });
    const bound = (server.address() as AddressInfo).port;
    const authority = host.includes(':') ? `[${host}]:${bound}` : `${host}:${bound}`;
    handler = mcpHttpHandler(runtime, { ...common, ...(loopback.has(host) ? { allowedHosts: [authority, `localhost:${bound}`, `127.0.0.1:${bound}`] } : {}) });
    closing.push(async () => {
      handler!.close();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    });
    log(`jtc proxy: serving ${upstream.label} at http://${authority}/mcp\n`);
    await new Promise<void>((resolve) => {
      process.once('SIGINT', resolve);
      process.once('SIGTERM', resolve);
    });
    return 0;
  } finally {
    await close();
  }
}

/** `jtc proxy <contracts> --stdio "<command>" | --url <endpoint>`: a contract gateway. */
export const proxyCommand: CliCommand = (program, context) => {
  program
    .command('proxy')
    .summary("serve an MCP server's tools through their contracts: a contract gateway")
    .description(
      "Serve the tools of an upstream MCP server (--stdio, a command; or --url, Streamable HTTP at either revision) to clients of both revisions, over stdio (the default, for a local agent) or HTTP (--listen), each call held to the contracts of <contracts> (jtc import -o's folder): the input checked before it is forwarded, the output before it is returned (a breaking output is invalid_output). At start and on tools/list_changed the upstream's listing is compared with the contracts as jtc import --check does; the report goes to stderr. Exit codes: 0 stopped, 2 usage, I/O or upstream errors at start.",
    )
    .argument('<contracts>', 'the folder of *.contract.json (jtc import -o)')
    .option('--stdio <command>', 'the upstream: the command that starts it over stdio')
    .option('--url <endpoint>', 'the upstream: its Streamable HTTP endpoint')
    .option('--header <header>', 'an HTTP header for --url, "Name: value" (repeatable)', (header: string, previous: string[]) => [...previous, header], [] as string[])
    .option('--timeout <seconds>', 'how long connecting, and each forwarded request, may take', '60')
    .option('--listen <[host:]port>', 'serve Streamable HTTP here (loopback unless a host is named; 0: a free port) instead of stdio')
    .addOption(new Option('--on-drift <policy>', 'a tool whose upstream listing broke its contract: refused, or served with a warning').choices(['refuse', 'warn']).default('refuse'))
    .addOption(new Option('--uncontracted <policy>', 'a tool the upstream lists without a contract: refused (not served), or passed unchecked').choices(['refuse', 'pass']).default('refuse'))
    .option('--budget <tool=calls>', 'how many calls a tool may complete (repeatable; with --redis, across every replica)', (entry: string, previous: string[]) => [...previous, entry], [] as string[])
    .option('--redis <url>', 'share budgets and calls with every replica started on this Redis (needs the redis package)')
    .option('--otel', "spans and metrics of every call through OpenTelemetry's global providers (needs @opentelemetry/api, and an SDK set up in the process)")
    .option('--learn <dir>', 'record the outputs of tools whose contract accepts any output, for jtc infer')
    .option('--learn-samples <n>', 'with --learn: the most samples kept per tool', '20')
    .option('--learn-bytes <n>', 'with --learn: the largest sample written, in bytes (a larger one is skipped)', '65536')
    .option('--learn-arguments', "with --learn: write each call's arguments beside its output (by default none are written)")
    .action(async (contracts: string, flags: ProxyFlags) => {
      context.exitCode = await runProxy(proxyOptionsOf(contracts, flags));
    });
};
