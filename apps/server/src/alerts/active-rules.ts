import { and, eq, ne, sql } from 'drizzle-orm';
import { type Db, rowsOf } from '../db/client.ts';
import { surveyAlertRules } from '../db/schema/index.ts';
import { singleWordsOf } from './triggers.ts';

export type Rule = typeof surveyAlertRules.$inferSelect;

/** A client's active response rules, and the ones worth testing on a response given its words. */
export type RuleSet = { rules: Rule[]; candidates(words: ReadonlySet<string>): Rule[] };

/**
 * Indexes keyword rules whose keywords are all single words by those words: a response can only
 * fire such a rule if it holds one of them, so the thousand keyword rules of a client cost a
 * lookup per word of the response instead of a test each (bench/alerts). Every other rule is a
 * candidate for every response. Candidates keep the rules' order; the caller still tests them.
 */
function ruleSetOf(rules: Rule[]): RuleSet {
  const byWord = new Map<string, number[]>();
  const always: number[] = [];
  rules.forEach((rule, i) => {
    const words = rule.trigger === 'keyword' ? singleWordsOf(rule.keywords) : null;
    if (words === null) always.push(i);
    for (const word of new Set(words)) {
      const list = byWord.get(word);
      if (list) list.push(i);
      else byWord.set(word, [i]);
    }
  });
  return {
    rules,
    candidates(words) {
      const picked = [...always];
      for (const word of words) picked.push(...(byWord.get(word) ?? []));
      return [...new Set(picked)].sort((a, b) => a - b).flatMap((i) => rules[i] ?? []);
    },
  };
}

/** A client's active response rules as last read, and the stamp they were read at (per database). */
const ruleCache = new WeakMap<Db, Map<number, { stamp: string; set: RuleSet }>>();

/**
 * The client's active rules a response can fire (not `no_response_days`). Every response of a
 * client is checked against all of them, so they are read again only when the client's rules
 * change: the stamp (how many, and the sum of their row versions' transaction ids, one aggregate
 * with no rows sent) is compared on every call. Any insert, update or delete, by any means, makes
 * a row version with a newer transaction id or changes the count, so a rule made, edited, paused
 * or resumed counts from the next batch of responses on (bench/alerts: reading 1,000 rules per
 * response was most of the time; hashing each rule's text for the stamp was the next).
 */
export async function activeRules(db: Db, clientId: number): Promise<RuleSet> {
  const [stampRow] = rowsOf(
    await db.execute(sql`select count(*)::text || ':' || coalesce(sum(xmin::text::bigint), 0)::text as stamp
      from survey_alert_rules where client_id = ${clientId}`),
  );
  const stamp = String(stampRow?.stamp ?? '');
  let byClient = ruleCache.get(db);
  if (!byClient) {
    byClient = new Map();
    ruleCache.set(db, byClient);
  }
  const cached = byClient.get(clientId);
  if (cached && cached.stamp === stamp) return cached.set;
  const rules = await db
    .select()
    .from(surveyAlertRules)
    .where(
      and(eq(surveyAlertRules.clientId, clientId), eq(surveyAlertRules.status, 'active'), ne(surveyAlertRules.trigger, 'no_response_days')),
    );
  if (byClient.size > 1000) byClient.clear();
  const set = ruleSetOf(rules);
  byClient.set(clientId, { stamp, set });
  return set;
}
