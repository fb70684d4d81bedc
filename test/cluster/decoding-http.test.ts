/**
 * The simulator's API server decoding request bodies, checked against the cases of upstream's
 * integration test test/integration/apiserver/field_validation_test.go (kubernetes/kubernetes):
 * the same bodies, with repeated and unknown fields, sent with each `fieldValidation`, must get
 * the same strict decoding error or the same Warning headers, in the same order.
 */
import assert from 'node:assert/strict';
import { request } from 'node:https';
import { serveSimulator, type ServedSimulator } from './served-simulator';

/** invalidBodyJSON of field_validation_test.go. */
const INVALID_BODY = (name: string): string => `
	{
		"apiVersion": "apps/v1",
		"kind": "Deployment",
		"metadata": {
			"name": "dupename",
			"name": "${name}",
			"labels": {"app": "nginx"},
			"unknownMeta": "metaVal"
		},
		"spec": {
			"unknown1": "val1",
			"unknownDupe": "valDupe",
			"unknownDupe": "valDupe2",
			"paused": true,
			"paused": false,
			"selector": {
				"matchLabels": {
					"app": "nginx"
				}
			},
			"template": {
				"metadata": {
					"labels": {
						"app": "nginx"
					}
				},
				"spec": {
					"containers": [{
						"name":  "nginx",
						"image": "nginx:latest",
						"unknownNested": "val1",
						"imagePullPolicy": "Always",
						"imagePullPolicy": "Never"
					}]
				}
			}
		}
	}`;

/** The smpBody of field_validation_test.go. */
const SMP_BODY = `
	{
		"spec": {
			"unknown1": "val1",
			"unknownDupe": "valDupe",
			"unknownDupe": "valDupe2",
			"paused": true,
			"paused": false,
			"selector": {
				"matchLabels": {
					"app": "nginx"
				}
			},
			"template": {
				"metadata": {
					"labels": {
						"app": "nginx"
					}
				},
				"spec": {
					"containers": [{
						"name": "nginx",
						"unknownNested": "val1",
						"imagePullPolicy": "Always",
						"imagePullPolicy": "Never"
					}]
				}
			}
		}
	}`;

/** applyInvalidBody of field_validation_test.go (tabs and all: JSON is YAML). */
const APPLY_INVALID_BODY = (name: string): string => `{
		"apiVersion": "apps/v1",
		"kind": "Deployment",
		"metadata": {
			"name": "${name}",
			"labels": {"app": "nginx"}
		},
		"spec": {
			"paused": false,
			"paused": true,
			"selector": {
				"matchLabels": {
					"app": "nginx"
				}
			},
			"template": {
				"metadata": {
					"labels": {
						"app": "nginx"
					}
				},
				"spec": {
					"containers": [{
						"name":  "nginx",
						"image": "nginx:latest",
						"imagePullPolicy": "Never",
						"imagePullPolicy": "Always"
					}]
				}
			}
		}
	}`;

const POST_WARNINGS = [
  'duplicate field "metadata.name"',
  'unknown field "metadata.unknownMeta"',
  'unknown field "spec.unknown1"',
  'unknown field "spec.unknownDupe"',
  'duplicate field "spec.paused"',
  'unknown field "spec.template.spec.containers[0].unknownNested"',
  'duplicate field "spec.template.spec.containers[0].imagePullPolicy"',
];

const SMP_WARNINGS = [
  'duplicate field "spec.unknownDupe"',
  'duplicate field "spec.paused"',
  'duplicate field "spec.template.spec.containers[0].imagePullPolicy"',
  'unknown field "spec.template.spec.containers[0].unknownNested"',
  'unknown field "spec.unknown1"',
  'unknown field "spec.unknownDupe"',
];

interface Answer {
  status: number;
  body: { message?: string; reason?: string };
  warnings: string[];
}

/** `299 - "unknown field \"spec.foo\""` → `unknown field "spec.foo"`. */
function warningTexts(header: string | string[] | undefined): string[] {
  const values = header === undefined ? [] : Array.isArray(header) ? header : header.split(/,(?=\s*299 )/);
  return values.map((value) => JSON.parse(value.trim().replace(/^299 - /, '')) as string);
}

describe('the API server decodes bodies as upstream field_validation_test.go expects', function () {
  this.timeout(30_000);
  let served: ServedSimulator;

  const send = (method: string, path: string, contentType: string, body: string): Promise<Answer> =>
    new Promise((resolve, reject) => {
      const req = request(
        `${served.url}${path}`,
        { method, ca: served.certificate.certPem, headers: { Authorization: `Bearer ${served.token}`, 'Content-Type': contentType, Accept: 'application/json' } },
        (res) => {
          let text = '';
          res.on('data', (chunk: Buffer) => (text += chunk.toString()));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) as Answer['body'], warnings: warningTexts(res.headers.warning) }));
        },
      );
      req.on('error', reject);
      req.end(body);
    });
  const deployments = '/apis/apps/v1/namespaces/default/deployments';

  before(async () => {
    served = await serveSimulator({ nodes: 1, seed: 1, speed: 20 });
  });

  after(async () => {
    await served?.stop();
  });

  it('POST with Strict: one 400 listing repeated and unknown fields in document order', async () => {
    const answer = await send('POST', `${deployments}?fieldValidation=Strict`, 'application/json', INVALID_BODY('post-strict'));
    assert.equal(answer.status, 400);
    assert.equal(answer.body.reason, 'BadRequest');
    assert.equal(answer.body.message, `Deployment in version "v1" cannot be handled as a Deployment: strict decoding error: ${POST_WARNINGS.join(', ')}`);
  });

  it('POST with Warn, or without fieldValidation: created, with one Warning per field', async () => {
    const warn = await send('POST', `${deployments}?fieldValidation=Warn`, 'application/json', INVALID_BODY('post-warn'));
    assert.equal(warn.status, 201);
    assert.deepEqual(warn.warnings, POST_WARNINGS);
    const none = await send('POST', deployments, 'application/json', INVALID_BODY('post-none'));
    assert.equal(none.status, 201);
    assert.deepEqual(none.warnings, POST_WARNINGS);
  });

  it('POST with Ignore: created, no warnings', async () => {
    const answer = await send('POST', `${deployments}?fieldValidation=Ignore`, 'application/json', INVALID_BODY('post-ignore'));
    assert.equal(answer.status, 201);
    assert.deepEqual(answer.warnings, []);
    // Decoding into the Go types drops unknown fields; the last of repeated ones wins.
    const stored = served.simulator.store.get('Deployment', 'default', 'post-ignore');
    const spec = stored?.spec as Record<string, unknown>;
    assert.equal(spec.unknown1, undefined);
    assert.equal(spec.paused, false);
    assert.equal((stored?.metadata as Record<string, unknown>).unknownMeta, undefined);
  });

  it("strategic merge patch: the patch's repeated fields, then the result's unknown fields, sorted", async () => {
    const strict = await send('PATCH', `${deployments}/post-ignore?fieldValidation=Strict`, 'application/strategic-merge-patch+json', SMP_BODY);
    assert.equal(strict.status, 422);
    assert.ok(strict.body.message?.endsWith(`strict decoding error: ${SMP_WARNINGS.join(', ')}`), strict.body.message);
    const warn = await send('PATCH', `${deployments}/post-ignore?fieldValidation=Warn`, 'application/strategic-merge-patch+json', SMP_BODY);
    assert.equal(warn.status, 200);
    assert.deepEqual(warn.warnings, SMP_WARNINGS);
  });

  it('server-side apply: repeated keys refused under Strict with go-yaml\'s lines, warned under Warn', async () => {
    const path = (name: string, mode: string): string => `${deployments}/${name}?fieldManager=mgr&fieldValidation=${mode}`;
    const strict = await send('PATCH', path('apply-strict', 'Strict'), 'application/apply-patch+yaml', APPLY_INVALID_BODY('apply-strict'));
    assert.equal(strict.status, 400);
    assert.equal(
      strict.body.message,
      'error strict decoding YAML: error converting YAML to JSON: yaml: unmarshal errors:\n  line 10: key "paused" already set in map\n  line 27: key "imagePullPolicy" already set in map',
    );
    const warn = await send('PATCH', path('apply-warn', 'Warn'), 'application/apply-patch+yaml', APPLY_INVALID_BODY('apply-warn'));
    assert.equal(warn.status, 201);
    assert.deepEqual(warn.warnings, ['line 10: key "paused" already set in map', 'line 27: key "imagePullPolicy" already set in map']);
    assert.equal((served.simulator.store.get('Deployment', 'default', 'apply-warn')?.spec as { paused?: boolean }).paused, true);
  });

  it('strategic merge patch of a wrong type: 422 on the field patch, with the converter\'s words', async () => {
    const answer = await send('PATCH', `${deployments}/post-ignore`, 'application/strategic-merge-patch+json', '{"spec":{"replicas":"3"}}');
    assert.equal(answer.status, 422);
    assert.equal(answer.body.message, ' "" is invalid: patch: Invalid value: "map[spec:map[replicas:3]]": unrecognized type: int32');
  });
});
