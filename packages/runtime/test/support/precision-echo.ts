import { readFileSync } from 'node:fs';
import { compileContract, type LoadedContract } from '../../../../test/support/load-module.js';

/** The precision.echo fixture built with --exact-numbers: what shows that a stored output keeps every digit. */
export function precisionEcho(): LoadedContract {
  return compileContract(readFileSync(new URL('../fixtures/precision.echo.contract.json', import.meta.url), 'utf8'), 'precision.echo.contract.json', { exactNumbers: true });
}
