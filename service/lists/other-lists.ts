/**
 * The spec's other list endpoints. The spec shows only their envelope; the rows are our choice
 * (README: Interface choices), each read from a real table and scoped to the caller.
 *
 * Roles (in the route table, common/api/routes.ts, checked by handle()): admin lists need SYSOP;
 * reseller lists need RESELLER; organization lists need ORGADMIN; SYSOP may also read the reseller
 * and organization lists (of its own organization). A caller without the role gets 403. Admin
 * lists span every organization; all others are scoped to the caller's organization (or, for
 * user_preferences, the caller).
 */
import type { FastifyInstance } from 'fastify';
import type { RouteId } from '../../common/api';
import type { UserPrincipal } from '../auth/principal';
import type { ServiceContext } from '../context';
import { notFound } from '../http/errors';
import { handle } from '../http/handle';
import { listArray, listRows, type ListSpec } from '../http/listing';
import { languageModels } from '../models/catalog';
import { HEARTBEAT_STALE_MS } from '../queue/protocol';

type ListRouteId = Extract<
  RouteId,
  | 'subscriptions.list' | 'subscription.list' | 'invoices.list' | 'customModels.list' | 'reseller.customers' | 'reseller.plans'
  | 'userPreferences.list' | 'mandates.list' | 'organization.users' | 'organization.groups'
  | 'admin.customers' | 'admin.plans' | 'admin.billing' | 'admin.usage' | 'admin.usageTraffic' | 'admin.stranded' | 'admin.priorityQueue'
>;


/** Sessions that have sat queued or processing this long are stranded. */
const STRANDED_AFTER_MS = 60 * 60 * 1000;

const SUBSCRIPTIONS = 'FROM subscriptions s JOIN plans p ON p.id = s.plan_id';
const SUBSCRIPTION_COLUMNS = 's.id, s.status, s.started_at, p.id AS plan_id, p.name AS plan_name, p.monthly_minutes, p.price_cents';
const USERS = "id, email, first_name, last_name, json(roles) AS roles, is_active = 1 AS is_active, identity_provider";

const LISTS: Record<ListRouteId, { spec: (p: UserPrincipal) => ListSpec }> = {
  'subscriptions.list': {
    spec: (p) => ({ select: SUBSCRIPTION_COLUMNS, from: SUBSCRIPTIONS, where: ['s.org_id = ?'], args: [p.orgId], searchable: ['p.name', 's.status'], sortable: { started_at: 's.started_at', status: 's.status', plan_name: 'p.name' }, tieBreak: 's.id' }),
  },
  'subscription.list': {
    spec: (p) => ({ select: SUBSCRIPTION_COLUMNS, from: SUBSCRIPTIONS, where: ['s.org_id = ?', "s.status = 'active'"], args: [p.orgId], searchable: [], sortable: { started_at: 's.started_at' }, tieBreak: 's.id' }),
  },
  'invoices.list': {
    spec: (p) => ({ select: 'id, number, amount_cents, issued_at', from: 'FROM invoices', where: ['org_id = ?'], args: [p.orgId], searchable: ['number'], sortable: { issued_at: 'issued_at', number: 'number', amount_cents: 'amount_cents' } }),
  },
  'customModels.list': {
    spec: (p) => ({ select: 'id, name, language, status, created_at', from: 'FROM custom_models', where: ['org_id = ?'], args: [p.orgId], searchable: ['name', 'language'], sortable: { created_at: 'created_at', name: 'name', language: 'language', status: 'status' } }),
  },
  'reseller.customers': {
    spec: (p) => ({ select: 'id, name, created_at', from: 'FROM organizations', where: ['reseller_org_id = ?'], args: [p.orgId], searchable: ['name'], sortable: { created_at: 'created_at', name: 'name' } }),
  },
  'reseller.plans': {
    spec: () => ({ select: 'id, name, description, monthly_minutes, price_cents', from: 'FROM plans', where: [], args: [], searchable: [], sortable: { id: 'id' }, defaultDirection: 'asc' }),
  },
  'userPreferences.list': {
    spec: (p) => ({ select: 'id, key, value', from: 'FROM user_preferences', where: ['user_id = ?'], args: [p.userId], searchable: ['key', 'value'], sortable: { key: 'key' }, defaultDirection: 'asc' }),
  },
  'mandates.list': {
    spec: (p) => ({ select: 'id, method, created_at', from: 'FROM mandates', where: ['org_id = ?'], args: [p.orgId], searchable: [], sortable: { created_at: 'created_at' } }),
  },
  'organization.users': {
    spec: (p) => ({ select: USERS, from: 'FROM users', where: ['org_id = ?'], args: [p.orgId], searchable: [], sortable: { id: 'id' }, defaultDirection: 'asc' }),
  },
  'organization.groups': {
    spec: (p) => ({ select: 'id, name, created_at', from: 'FROM org_groups', where: ['org_id = ?'], args: [p.orgId], searchable: [], sortable: { id: 'id' }, defaultDirection: 'asc' }),
  },
  'admin.customers': {
    spec: () => ({
      select: 'o.id, o.name, o.created_at, o.reseller_org_id, (SELECT COUNT(*) FROM users u WHERE u.org_id = o.id) AS user_count',
      from: 'FROM organizations o', where: [], args: [], searchable: ['o.name'], sortable: { id: 'o.id' }, tieBreak: 'o.id', defaultDirection: 'asc',
    }),
  },
  'admin.plans': {
    spec: () => ({ select: 'id, name, description, monthly_minutes, price_cents', from: 'FROM plans', where: [], args: [], searchable: ['name', 'description'], sortable: { id: 'id' }, defaultDirection: 'asc' }),
  },
  'admin.billing': {
    spec: () => ({ select: 'id, org_id, number, amount_cents, issued_at', from: 'FROM invoices', where: [], args: [], searchable: ['number'], sortable: { issued_at: 'issued_at' } }),
  },
  'admin.usage': {
    spec: () => ({
      from: 'FROM (SELECT o.id, o.name, COUNT(s.id) AS sessions, COALESCE(SUM(s.duration), 0) AS duration FROM organizations o LEFT JOIN sessions s ON s.org_id = o.id GROUP BY o.id)',
      where: [], args: [], searchable: ['name'], sortable: { id: 'id' }, tieBreak: 'id', defaultDirection: 'asc',
    }),
  },
  'admin.usageTraffic': {
    spec: () => ({
      from: 'FROM (SELECT substr(created_at, 1, 10) AS id, COUNT(*) AS sessions, COALESCE(SUM(duration), 0) AS duration FROM sessions GROUP BY substr(created_at, 1, 10))',
      where: [], args: [], searchable: ['id'], sortable: { id: 'id' }, tieBreak: 'id',
    }),
  },
  'admin.stranded': {
    spec: () => ({
      // A session stuck an hour, or (a team server) whose job's worker has gone silent.
      select: 'id, session_id, org_id, filename, status, last_modified, worker, queue_name, heartbeat_at',
      from: `FROM (SELECT s.id, s.session_id, s.org_id, s.filename, s.status, s.last_modified, j.worker, j.queue_name, j.heartbeat_at
                   FROM sessions s LEFT JOIN jobs j ON j.session_pk = s.id AND j.status IN ('pending', 'processing')
                   WHERE s.status IN ('queued', 'processing') AND (s.last_modified < ? OR (j.status = 'processing' AND j.heartbeat_at < ?)))`,
      where: [], args: [new Date(Date.now() - STRANDED_AFTER_MS).toISOString(), Date.now() - HEARTBEAT_STALE_MS],
      searchable: ['session_id', 'filename', 'status', 'worker'], sortable: { last_modified: 'last_modified' }, tieBreak: 'id', defaultDirection: 'asc',
    }),
  },
  'admin.priorityQueue': {
    spec: () => ({
      // In the order jobs are taken; on a team server with the queue (engine and language) each waits on.
      select: 'id, session_id, org_id, filename, status, created_at, job_id, queue_name, attempts',
      from: `FROM (SELECT s.id, s.session_id, s.org_id, s.filename, s.status, s.created_at, j.job_id, j.queue_name, j.attempts
                   FROM sessions s LEFT JOIN jobs j ON j.session_pk = s.id AND j.status = 'pending' WHERE s.status = 'queued')`,
      where: [], args: [],
      searchable: ['session_id', 'filename', 'queue_name'], sortable: { created_at: 'created_at' }, tieBreak: 'id', defaultDirection: 'asc',
    }),
  },
};

/** SQLite answers JSON columns as text and booleans as 0/1; the wire wants them typed. */
function present(row: Record<string, unknown>): Record<string, unknown> & { id: number | string } {
  const out: Record<string, unknown> = { ...row };
  if (typeof out.roles === 'string') out.roles = JSON.parse(out.roles);
  if (typeof out.is_active === 'number') out.is_active = out.is_active === 1;
  return out as Record<string, unknown> & { id: number | string };
}

export function registerOtherLists(app: FastifyInstance, ctx: ServiceContext): void {
  for (const [id, def] of Object.entries(LISTS) as [ListRouteId, (typeof LISTS)[ListRouteId]][]) {
    handle(
      app,
      ctx,
      id,
      async ({ principal, query }) => {
        const page = listRows<Record<string, unknown>>(ctx.db, def.spec(principal), query);
        return { ...page, result: page.result.map(present) };
      },
    );
  }

  handle(
    app,
    ctx,
    'admin.languageConfig',
    async ({ query }) => listArray(languageModels(ctx.speech), { searchable: ['key', 'name', 'bcp47'], sortable: ['id', 'key', 'name'] }, query),
  );

  handle(
    app,
    ctx,
    'organization.groupUsers',
    async ({ principal, params, query }) => {
      const { orgId } = principal;
      if (!ctx.db.prepare('SELECT 1 FROM org_groups WHERE id = ? AND org_id = ?').get(params.id, orgId)) throw notFound('group');
      const page = listRows<Record<string, unknown>>(
        ctx.db,
        { select: USERS, from: 'FROM users', where: ['org_id = ?', 'id IN (SELECT user_id FROM org_group_members WHERE group_id = ?)'], args: [orgId, params.id], searchable: [], sortable: { id: 'id' }, defaultDirection: 'asc' },
        query,
      );
      return { ...page, result: page.result.map(present) };
    },
  );
}
