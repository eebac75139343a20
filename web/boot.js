// Starts the app without any network request: the page's Content-Security-Policy
// says connect-src 'none', so the wasm cannot be fetched. `cargo xtask dist`
// writes its bytes into roll-doctor-web.wasm.js, which is loaded as a script.
import init from './roll-doctor-web.js';
import { wasmBase64 } from './roll-doctor-web.wasm.js';

const bin = atob(wasmBase64);
const bytes = new Uint8Array(bin.length);
for (let i = 0; i < bin.length; i++) bytes[i] = bin.charCodeAt(i);
await init({ module_or_path: bytes });
