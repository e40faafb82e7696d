/**
 * The spec's precision table. For each bound: values just below, at and just above it, as JSON
 * text; the verdicts say which are accepted. Default mode rounds bound and value alike to the
 * nearest f64 (so literals that differ only past f64 precision compare equal); exact mode keeps
 * every digit. A bound outside the f64 range does not build in the default mode.
 */
export const precisionTable: readonly { row: string; keyword: 'minimum' | 'maximum'; bound: string; values: readonly [string, string, string]; default: readonly boolean[] | 'JTC117'; exact: readonly boolean[] }[] = [
  { row: 'integer within ±2^53', keyword: 'maximum', bound: '9007199254740991', values: ['9007199254740990', '9007199254740991', '9007199254740992'], default: [true, true, false], exact: [true, true, false] },
  { row: 'negative integer within ±2^53', keyword: 'minimum', bound: '-9007199254740991', values: ['-9007199254740992', '-9007199254740991', '-9007199254740990'], default: [false, true, true], exact: [false, true, true] },
  { row: 'u64 beyond 2^53', keyword: 'maximum', bound: '18446744073709551615', values: ['18446744073709551614', '18446744073709551615', '18446744073709551616'], default: [true, true, true], exact: [true, true, false] },
  { row: 'i64 beyond -2^53', keyword: 'minimum', bound: '-9223372036854775808', values: ['-9223372036854775809', '-9223372036854775808', '-9223372036854775807'], default: [true, true, true], exact: [false, true, true] },
  { row: 'decimal that round-trips: 0.1', keyword: 'maximum', bound: '0.1', values: ['0.0999999999999999999999', '0.1', '0.1000000000000000000001'], default: [true, true, true], exact: [true, true, false] },
  { row: 'decimal that round-trips: 2.5e-3', keyword: 'minimum', bound: '2.5e-3', values: ['0.0024999999999999999999', '0.0025', '0.0025000000000000000001'], default: [true, true, true], exact: [false, true, true] },
  { row: 'decimal that round-trips: 1e21', keyword: 'maximum', bound: '1e21', values: ['999999999999999999999', '1e21', '1000000000000000000001'], default: [true, true, true], exact: [true, true, false] },
  { row: 'integer beyond u64 (30 digits)', keyword: 'maximum', bound: '123456789012345678901234567890', values: ['123456789012345678901234567889', '123456789012345678901234567890', '123456789012345678901234567891'], default: [true, true, true], exact: [true, true, false] },
  { row: 'decimal past f64 precision', keyword: 'maximum', bound: '0.30000000000000000001', values: ['0.3', '0.30000000000000000001', '0.30000000000000000002'], default: [true, true, true], exact: [true, true, false] },
  { row: 'above the f64 range: 1e400', keyword: 'maximum', bound: '1e400', values: ['9.99e399', '1e400', '1.0000000000000000001e400'], default: 'JTC117', exact: [true, true, false] },
  { row: 'below the f64 range: -1e400', keyword: 'minimum', bound: '-1e400', values: ['-1.0000000000000000001e400', '-1e400', '-9.99e399'], default: 'JTC117', exact: [false, true, true] },
  { row: 'signed zero: -0.0 is 0', keyword: 'maximum', bound: '-0.0', values: ['-1e-400', '0.0', '1e-400'], default: [true, true, true], exact: [true, true, false] },
  { row: 'exponents beyond 2^53 compare exactly', keyword: 'maximum', bound: '1e99999999999999999999998', values: ['9.9e99999999999999999999997', '1e99999999999999999999998', '1e99999999999999999999999'], default: 'JTC117', exact: [true, true, false] },
  { row: 'tiny exponents beyond 2^53 compare exactly', keyword: 'minimum', bound: '1e-99999999999999999999998', values: ['1e-99999999999999999999999', '1e-99999999999999999999998', '2e-99999999999999999999998'], default: [true, true, true], exact: [false, true, true] },
  { row: 'below the smallest double: 1e-400', keyword: 'minimum', bound: '1e-400', values: ['9e-401', '1e-400', '1.1e-400'], default: [true, true, true], exact: [false, true, true] },
];
