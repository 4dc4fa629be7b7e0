/** Stylesheets are bundled by esbuild (scripts/build-console.mjs) into the console's one .css file. */
declare module '*.css';

/**
 * The /verify page's proof verifier, made into a module at build time from libs/verify-page/src/script/*.script.ts
 * (scripts/build-console.mjs aliases this name to it).
 */
declare module 'tlog-verifier' {
  interface Span {
    /** Where the value's text starts and ends in the parsed text. */
    a: number;
    b: number;
  }
  /** JSON as the verifier reads it: strings decoded, numbers and literals as written (no digit lost). */
  export type JsonNode =
    | (Span & { k: 's'; v: string })
    | (Span & { k: 'n' | 'l'; text: string })
    | (Span & { k: 'o'; members: Map<string, JsonNode> })
    | (Span & { k: 'a'; items: JsonNode[] });
  export interface ProofPolicy {
    key: string;
    witnesses?: string[];
    minCosignatures?: number;
    origin?: string;
  }
  export type ProofReport =
    | { ok: false; reason: string }
    | {
        ok: true;
        origin: string;
        size: string;
        index: string;
        seq: string;
        entry: string;
        fields: { key: string; value: string }[];
        cosignatures: { name: string; keyId: string; timestamp: string }[];
        extensions: string[];
        unchecked: string[];
      };
  export const tlogProofVerifier: {
    verifyProof(bytes: Uint8Array, policy: ProofPolicy): Promise<ProofReport>;
    layOut(json: string): string;
    /** Throws on text that is not JSON, or nests deeper than 64. */
    parseJsonLosslessly(json: string): JsonNode;
  };
}
