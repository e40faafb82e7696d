export const jsonNumberBrand = Symbol.for("json-tool-contracts/JsonNumber");
