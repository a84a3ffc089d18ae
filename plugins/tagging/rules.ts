// Which request headers become labels: from `TAGGING_HEADER_<n>` variables (docs/api.md,
// "Labels") and the plugin's `headers` option. Credential headers can never be label
// sources: a label is stored in the audit log and shown in usage reports.
import { StartupError } from '../../core/config-error.js';
import { CREDENTIAL_HEADERS } from '../../core/credential-headers.js';

export interface TaggingRule {
  /** Lower-case header name (node:http lower-cases incoming names). */
  header: string;
  /** The label's name. */
  label: string;
  /** Strip the header from passthrough requests. */
  doNotPass: boolean;
  /** Split the value into several values of the label. */
  delimiter: string | null;
}

export interface HeaderOption {
  header: string;
  label?: string;
  donotpass?: boolean;
  delimiter?: string;
}


const TAGGING_VAR = /^TAGGING_HEADER_(\d+)$/;

export function rulesFromEnv(env: Readonly<Record<string, string | undefined>>): HeaderOption[] {
  const found: Array<[number, HeaderOption]> = [];
  for (const [name, value] of Object.entries(env)) {
    const m = TAGGING_VAR.exec(name);
    if (!m || value === undefined || value.trim() === '') continue;
    const n = m[1]!;
    const option: HeaderOption = { header: value.trim() };
    const label = env[`TAGGING_HEADER_${n}_PREFIX`];
    if (label) option.label = label;
    const delimiter = env[`TAGGING_HEADER_${n}_DELIMITER`];
    if (delimiter) option.delimiter = delimiter;
    if (env[`TAGGING_HEADER_${n}_DONOTPASS`]?.toLowerCase() === 'true') option.donotpass = true;
    found.push([Number(n), option]);
  }
  return found.sort((a, b) => a[0] - b[0]).map(([, o]) => o);
}

/** Config rules, then environment rules; the environment wins for the same header. */
export function buildRules(fromConfig: HeaderOption[], fromEnv: HeaderOption[], source: string): TaggingRule[] {
  const byHeader = new Map<string, TaggingRule>();
  for (const [origin, options] of [[source, fromConfig], ['environment', fromEnv]] as const) {
    for (const o of options) {
      const header = o.header.trim().toLowerCase();
      if (!/^[a-z0-9!#$%&'*+.^_`|~-]+$/.test(header)) {
        throw new StartupError('SLUICE_ERR_CONFIG_INVALID', `${origin}: tagging header '${o.header}': not a valid HTTP header name`);
      }
      if (CREDENTIAL_HEADERS.has(header)) {
        throw new StartupError('SLUICE_ERR_CONFIG_INVALID', `${origin}: tagging header '${o.header}': credential headers cannot be label sources (they would be stored in the audit log)`);
      }
      byHeader.set(header, { header, label: o.label ?? header, doNotPass: o.donotpass === true, delimiter: o.delimiter ?? null });
    }
  }
  return [...byHeader.values()];
}
