// The ESM face of clawmd: the same module as require('clawmd').
import { createRequire } from 'node:module';

const clawmd = createRequire(import.meta.url)('./index.js');

export const { open, ClawmdError, version, validName, bin, Handle } = clawmd;
export default clawmd;
