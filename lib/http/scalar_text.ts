// Workers only (lib/http/docs_assets.ts imports this file there and nowhere else): the Scalar standalone bundle as
// a text module. wrangler.toml's [[rules]] entry of type "Text" for this path makes wrangler upload it as a string
// module instead of bundling it as code; under Node the file is read from the installed package instead.
// A namespace import, so that a build without that rule still succeeds (the bundle then arrives as code, and
// /docs/scalar.js answers an error naming the missing rule) rather than failing every Worker's build.
// @ts-ignore: a text module, typed below
import * as bundle from '../../node_modules/@scalar/api-reference/dist/browser/standalone.js';

const text: unknown = (bundle as { default?: unknown }).default;

export default text;
