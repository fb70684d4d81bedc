/** Kube Journey's version, as package.json says (a unit test keeps them equal); written into journey files. */
export const TOOL_VERSION = '0.1.0';
