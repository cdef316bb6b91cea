/**
 * `${ENV_VAR}` substitution in YAML strings. A value that is exactly one unset `${VAR}` is
 * treated as absent (so optional secrets can be left unset); an unset variable inside a longer
 * string is an error. `$${` escapes a literal `${`.
 */
export type Substitution =
  | { kind: 'value'; value: string }
  | { kind: 'absent' }
  | { kind: 'error'; variable: string };

const PATTERN = /\$\$\{|\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g;

export function substituteEnv(input: string, env: NodeJS.ProcessEnv): Substitution {
  const whole = /^\$\{([A-Za-z_][A-Za-z0-9_]*)\}$/.exec(input);
  if (whole && env[whole[1]!] === undefined) return { kind: 'absent' };
  let missing: string | undefined;
  const value = input.replace(PATTERN, (match, name: string | undefined) => {
    if (name === undefined) return '${';
    const v = env[name];
    if (v === undefined) missing ??= name;
    return v ?? match;
  });
  return missing ? { kind: 'error', variable: missing } : { kind: 'value', value };
}
