{{header}}

{{imports}}

{{types}}

{{supportTypes}}

export declare const contract: ToolContract<{{inputType}}, {{outputType}}, {{name}}>;

export default contract;
