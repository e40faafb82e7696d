{{header}}

{{imports}}

{{types}}

{{supportHead}}

export declare const contract: ToolContract<{{inputType}}, {{outputType}}, {{name}}>;

export default contract;
