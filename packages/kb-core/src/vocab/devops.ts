// The `devops` vocabulary shipped with the library (the upstream's second one): services, hosts, deployments,
// incidents and the people and teams who own them, with the relationships an operations knowledge base records
// (depends_on, runs_on, owned_by, caused, ...). Synonyms fold common spellings of the usual infrastructure.
import type { Vocabulary } from '../model/registry.js';

const RUNNABLE = ['service', 'database', 'queue', 'cache', 'job', 'library', 'api', 'endpoint'];
const PLACE = ['host', 'cluster', 'region', 'environment', 'container', 'pod', 'node', 'cloud_provider'];
const OWNER = ['team', 'person'];
const CHANGE = ['deployment', 'release', 'commit', 'config_change', 'feature_flag'];

const INFRA: Record<string, string[]> = {
  postgresql: ['postgres', 'pg', 'psql'],
  kubernetes: ['k8s', 'kube'],
  redis: ['redis-server'],
  elasticsearch: ['elastic', 'es'],
  rabbitmq: ['rabbit', 'rmq'],
  kafka: ['apache kafka'],
  nginx: ['engine-x'],
  mysql: ['mariadb'],
  mongodb: ['mongo'],
  prometheus: ['prom'],
};

export const devops: Vocabulary = {
  description: 'Services, infrastructure, deployments and incidents for operations teams',
  entity_types: [
    ...RUNNABLE,
    ...PLACE,
    ...OWNER,
    ...CHANGE,
    'incident',
    'alert',
    'metric',
    'dashboard',
    'runbook',
    'repository',
    'version',
    'vulnerability',
    'slo',
  ],
  predicate_classes: ['dependency', 'deployment', 'ownership', 'incident', 'observability', 'change'],
  predicates: {
    depends_on: { class: 'dependency', subject_types: RUNNABLE, object_types: RUNNABLE },
    calls: { class: 'dependency', subject_types: RUNNABLE, object_types: RUNNABLE },
    reads_from: { class: 'dependency', subject_types: RUNNABLE, object_types: RUNNABLE },
    writes_to: { class: 'dependency', subject_types: RUNNABLE, object_types: RUNNABLE },
    runs_on: { class: 'deployment', subject_types: [...RUNNABLE, 'container', 'pod'], object_types: PLACE },
    deployed_to: { class: 'deployment', subject_types: [...RUNNABLE, ...CHANGE], object_types: PLACE },
    located_in: { class: 'deployment', subject_types: PLACE, object_types: PLACE },
    owned_by: { class: 'ownership', object_types: OWNER },
    maintained_by: { class: 'ownership', object_types: OWNER },
    member_of: { class: 'ownership', subject_types: ['person'], object_types: ['team'] },
    on_call_for: { class: 'ownership', subject_types: OWNER, object_types: RUNNABLE },
    affected: {
      class: 'incident',
      subject_types: ['incident', 'vulnerability'],
      object_types: [...RUNNABLE, ...PLACE],
    },
    caused: {
      class: 'incident',
      subject_types: [...CHANGE, ...RUNNABLE, ...PLACE, 'vulnerability'],
      object_types: ['incident', 'alert'],
    },
    caused_by: {
      class: 'incident',
      subject_types: ['incident', 'alert'],
      object_types: [...CHANGE, ...RUNNABLE, ...PLACE, 'vulnerability'],
    },
    resolved_by: { class: 'incident', subject_types: ['incident', 'alert'], object_types: [...CHANGE, ...OWNER] },
    triggered: { class: 'observability', subject_types: ['metric', 'alert'], object_types: ['alert', 'incident'] },
    monitors: { class: 'observability', subject_types: ['metric', 'alert', 'dashboard', 'slo'] },
    documented_in: { class: 'observability', object_types: ['runbook', 'dashboard', 'repository'] },
    built_from: {
      class: 'change',
      subject_types: [...RUNNABLE, 'release', 'version'],
      object_types: ['repository', 'commit'],
    },
    version_of: { class: 'change', subject_types: ['version', 'release'], object_types: RUNNABLE },
    introduced: { class: 'change', subject_types: CHANGE, object_types: ['vulnerability', 'incident'] },
    replaces: { class: 'change' },
  },
  synonyms: {
    // One table for every kind of running thing (a name like 'postgres' is a service, a database or a cache
    // by the claim's type); '*' is not used, since extraction reads '*' as gene symbols (the bio convention).
    ...Object.fromEntries(RUNNABLE.map((t) => [t, INFRA])),
    environment: {
      production: ['prod', 'prd', 'live'],
      staging: ['stage', 'stg', 'preprod', 'pre-production'],
      development: ['dev', 'develop'],
    },
    cloud_provider: {
      'amazon web services': ['aws'],
      'google cloud platform': ['gcp', 'google cloud'],
      'microsoft azure': ['azure'],
    },
    incident: {
      outage: ['downtime', 'service outage'],
    },
  },
};
