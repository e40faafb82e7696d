/** The next double away from `double` towards `step`, through its bits (Infinity after the largest): the tests' own, apart from the runtime's. */
export function nextDouble(double: number, step: 1 | -1): number {
  if (double === 0) return step * Number.MIN_VALUE;
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, double);
  const bits = view.getBigUint64(0);
  view.setBigUint64(0, double > 0 === step > 0 ? bits + 1n : bits - 1n);
  return view.getFloat64(0);
}
