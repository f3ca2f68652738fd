/**
 * operator/src/crd-types.ts matches the CRD schemas: every schema property has a field in the
 * TypeScript type and every field is in the schema. The key maps below are checked against the
 * types at compile time (`satisfies Record<keyof T, true>` refuses missing and extra keys), and
 * against the YAML of crds/ at run time.
 */
import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import {
  ACTION_TYPES,
  HEALTH_ACTION_STATES,
  SUPPRESSIBLE_SIGNALS,
  SUPPRESSION_PHASES,
  WEIGHTED_SIGNALS,
  healthActionName,
  type Condition,
  type HealthActionExecution,
  type HealthActionParams,
  type HealthActionSpec,
  type HealthActionStatus,
  type HealthActionTarget,
  type SuppressionSpec,
  type SuppressionStatus,
  type WorkloadWeightSpec,
  type WorkloadWeightStatus,
} from '../../../operator/src/crd-types.js';
import { REPO_ROOT } from '../../support/control-plane.js';

interface Schema {
  type?: string;
  properties?: Record<string, Schema>;
  items?: Schema;
  enum?: (string | number)[];
}
type Keys<T> = Record<keyof Required<T>, true>;

function schemaOf(plural: string): Schema {
  const crd = parse(readFileSync(join(REPO_ROOT, 'crds', `health.faultline.io_${plural}.yaml`), 'utf8')) as {
    spec: { versions: { name: string; schema: { openAPIV3Schema: Schema } }[] };
  };
  const version = crd.spec.versions.find((v) => v.name === 'v1alpha1');
  if (!version) throw new Error(`${plural}: no v1alpha1`);
  return version.schema.openAPIV3Schema;
}
function props(schema: Schema | undefined, path: string): Record<string, Schema> {
  if (!schema?.properties) throw new Error(`${path} has no properties`);
  return schema.properties;
}
function keysOf(map: object): string[] {
  return Object.keys(map).sort();
}

const conditionKeys = { type: true, status: true, observedGeneration: true, lastTransitionTime: true, reason: true, message: true } satisfies Keys<Condition>;

describe('crd-types.ts matches the CRD schemas', function () {
  it('Suppression spec and status', function () {
    const root = props(schemaOf('suppressions'), 'Suppression');
    const spec = { workload: true, start: true, end: true, reason: true, signals: true, ttlSecondsAfterExpiry: true } satisfies Keys<SuppressionSpec>;
    const status = { observedGeneration: true, phase: true, suppressionId: true, lastSyncTime: true, conditions: true } satisfies Keys<SuppressionStatus>;
    expect(keysOf(props(root.spec, 'spec'))).to.deep.equal(keysOf(spec));
    expect(keysOf(props(root.status, 'status'))).to.deep.equal(keysOf(status));
    expect(props(root.spec, 'spec').signals.items?.enum).to.deep.equal([...SUPPRESSIBLE_SIGNALS]);
    expect(props(root.status, 'status').phase.enum).to.deep.equal([...SUPPRESSION_PHASES]);
    expect(keysOf(props(props(root.status, 'status').conditions.items, 'conditions'))).to.deep.equal(keysOf(conditionKeys));
  });

  it('WorkloadWeight spec and status', function () {
    const root = props(schemaOf('workloadweights'), 'WorkloadWeight');
    const spec = {
      selector: true, priority: true, stress: true, fatigue: true, mood: true, pressure: true, humidity: true, contagion: true,
    } satisfies Keys<WorkloadWeightSpec>;
    const status = { observedGeneration: true, position: true, normalized: true, lastAppliedTime: true, conditions: true } satisfies Keys<WorkloadWeightStatus>;
    expect(keysOf(props(root.spec, 'spec'))).to.deep.equal(keysOf(spec));
    expect(keysOf(props(root.status, 'status'))).to.deep.equal(keysOf(status));
    expect(keysOf(props(props(root.status, 'status').normalized, 'normalized'))).to.deep.equal([...WEIGHTED_SIGNALS].sort());
  });

  it('HealthAction spec and status', function () {
    const root = props(schemaOf('healthactions'), 'HealthAction');
    const spec = {
      actionId: true, workload: true, type: true, params: true, tier: true, ruptureId: true, description: true,
      confidence: true, fusedRuptureIndex: true, createdAt: true, approved: true, rejected: true, rollbackRequested: true,
    } satisfies Keys<HealthActionSpec>;
    const params = { replicas: true, delta: true, reason: true, dependency: true, strategy: true, event: true } satisfies Keys<HealthActionParams>;
    const status = {
      observedGeneration: true, state: true, engineState: true, reason: true, message: true, target: true, execution: true,
      approvedAt: true, executedAt: true, rolledBackAt: true, lastSyncTime: true, conditions: true,
    } satisfies Keys<HealthActionStatus>;
    const target = { apiVersion: true, kind: true, namespace: true, name: true } satisfies Keys<HealthActionTarget>;
    const execution = {
      restartedAt: true, previousReplicas: true, targetReplicas: true, observedReplicas: true, attempts: true, dryRun: true,
      startedAt: true, finishedAt: true, reportedToEngine: true,
    } satisfies Keys<HealthActionExecution>;
    const specSchema = props(root.spec, 'spec');
    const statusSchema = props(root.status, 'status');
    expect(keysOf(specSchema)).to.deep.equal(keysOf(spec));
    expect(keysOf(props(specSchema.params, 'params'))).to.deep.equal(keysOf(params));
    expect(keysOf(statusSchema)).to.deep.equal(keysOf(status));
    expect(keysOf(props(statusSchema.target, 'target'))).to.deep.equal(keysOf(target));
    expect(keysOf(props(statusSchema.execution, 'execution'))).to.deep.equal(keysOf(execution));
    expect(specSchema.type.enum).to.deep.equal([...ACTION_TYPES]);
    expect(specSchema.tier.enum).to.deep.equal([1, 2]);
    expect(statusSchema.state.enum).to.deep.equal([...HEALTH_ACTION_STATES]);
  });

  it('names a HealthAction after its action id with "_" turned into "-"', function () {
    expect(healthActionName('act_4c1d9e0a7b22')).to.equal('act-4c1d9e0a7b22');
  });
});
