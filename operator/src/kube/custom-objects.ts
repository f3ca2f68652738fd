/**
 * Typed helpers over CustomObjectsApi for the three Faultline resources (operator.md §10.3):
 * paged lists for the reflector, status writes as merge patches on /status, finalizer writes as
 * merge patches carrying metadata.resourceVersion (conditional: 409 when the object changed).
 */
import type { CustomObjectsApi } from '@kubernetes/client-node';
import { ApiException, PatchStrategy, setHeaderOptions } from '@kubernetes/client-node';
import type { FaultlineKind, FaultlineResource, ResourceList } from '../crd-types.js';
import { GROUP, PLURALS, VERSION } from '../crd-types.js';

export const FIELD_MANAGER = 'faultline-operator';
const mergePatch = setHeaderOptions('Content-Type', PatchStrategy.MergePatch);

export const isApiError = (error: unknown, code: number): boolean => error instanceof ApiException && error.code === code;

export class FaultlineObjects {
  constructor(private readonly api: CustomObjectsApi) {}

  /** The watch path: cluster-wide, or one namespace. */
  path(kind: FaultlineKind, namespace?: string): string {
    return namespace === undefined ? `/apis/${GROUP}/${VERSION}/${PLURALS[kind]}` : `/apis/${GROUP}/${VERSION}/namespaces/${namespace}/${PLURALS[kind]}`;
  }

  async listPage<T extends FaultlineResource>(kind: T['kind'], namespace: string | undefined, limit: number, cont: string | undefined): Promise<ResourceList<T>> {
    const common = { group: GROUP, version: VERSION, plural: PLURALS[kind], limit, _continue: cont };
    const list = namespace === undefined ? await this.api.listClusterCustomObject(common) : await this.api.listNamespacedCustomObject({ ...common, namespace });
    return list as ResourceList<T>;
  }

  async get<T extends FaultlineResource>(kind: T['kind'], namespace: string, name: string): Promise<T | undefined> {
    try {
      return (await this.api.getNamespacedCustomObject({ group: GROUP, version: VERSION, namespace, plural: PLURALS[kind], name })) as T;
    } catch (error) {
      if (isApiError(error, 404)) return undefined;
      throw error;
    }
  }

  async create<T extends FaultlineResource>(object: T): Promise<T> {
    return (await this.api.createNamespacedCustomObject({
      group: GROUP,
      version: VERSION,
      namespace: object.metadata.namespace ?? '',
      plural: PLURALS[object.kind],
      body: object,
      fieldManager: FIELD_MANAGER,
    })) as T;
  }

  async delete(kind: FaultlineKind, namespace: string, name: string): Promise<void> {
    try {
      await this.api.deleteNamespacedCustomObject({ group: GROUP, version: VERSION, namespace, plural: PLURALS[kind], name });
    } catch (error) {
      if (!isApiError(error, 404)) throw error;
    }
  }

  /** Merge patch of the status subresource; returns the object the API server answered. */
  async patchStatus<T extends FaultlineResource>(object: T, status: NonNullable<T['status']>): Promise<T> {
    return (await this.api.patchNamespacedCustomObjectStatus(
      {
        group: GROUP,
        version: VERSION,
        namespace: object.metadata.namespace ?? '',
        plural: PLURALS[object.kind],
        name: object.metadata.name ?? '',
        body: { status },
        fieldManager: FIELD_MANAGER,
      },
      mergePatch,
    )) as T;
  }

  /** Writes the full finalizer list, conditional on the resourceVersion read. */
  async setFinalizers<T extends FaultlineResource>(object: T, finalizers: string[]): Promise<T> {
    return (await this.api.patchNamespacedCustomObject(
      {
        group: GROUP,
        version: VERSION,
        namespace: object.metadata.namespace ?? '',
        plural: PLURALS[object.kind],
        name: object.metadata.name ?? '',
        body: { metadata: { finalizers, resourceVersion: object.metadata.resourceVersion } },
        fieldManager: FIELD_MANAGER,
      },
      mergePatch,
    )) as T;
  }
}
