/** docs/journey-file.schema.json, compiled once, for tests that check saved files against it. */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import Ajv from 'ajv';

const schema = JSON.parse(readFileSync('docs/journey-file.schema.json', 'utf8')) as object;
const validate = new Ajv({ allErrors: false }).compile(schema);

/** Fails naming the first field the schema refuses. */
export function assertMatchesSchema(document: unknown, what: string): void {
  if (validate(document)) return;
  const [error] = validate.errors ?? [];
  assert.fail(`${what} does not match docs/journey-file.schema.json: ${error?.dataPath ?? ''} ${error?.message ?? ''} ${JSON.stringify(error?.params ?? {})}`);
}
