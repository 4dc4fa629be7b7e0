import { BYTES_SCRIPT } from './script/bytes.script.js';
import { ENTRY_SCRIPT } from './script/entry.script.js';
import { NOTE_SCRIPT } from './script/note.script.js';
import { PAGE_SCRIPT } from './script/page.script.js';
import { PROOF_SCRIPT } from './script/proof.script.js';

/**
 * The verifier page's one inline script, whole: a strict-mode function run at once, so that nothing but
 * `tlogProofVerifier` (in Node, where there is no document) reaches the global scope. The unit test runs these bytes.
 */
export const VERIFY_SCRIPT = ["(() => {\n'use strict';", BYTES_SCRIPT, NOTE_SCRIPT, PROOF_SCRIPT, ENTRY_SCRIPT, PAGE_SCRIPT, '})();\n'].join('');
