import { organizations } from '../../schema';
import type { Db } from '../db/types';
import { generateScheduledBriefs, type BriefType } from './generate_report';

/** When briefs are generated (UTC). The Worker's cron triggers in wrangler.toml use the same times. */
export const BRIEF_SCHEDULE: { type: BriefType; cron: string; weekday: number; hour: number }[] = [
  { type: 'friday', cron: '0 16 * * 5', weekday: 5, hour: 16 },
  { type: 'monday', cron: '0 7 * * 1', weekday: 1, hour: 7 },
];

/** Brief types due at `now`: from their hour until the end of that day, so a late tick still catches up. */
export function dueBriefTypes(now: Date): BriefType[] {
  return BRIEF_SCHEDULE.filter((s) => now.getUTCDay() === s.weekday && now.getUTCHours() >= s.hour).map((s) => s.type);
}

export async function runBriefs({ db, types, now }: { db: Db; types: BriefType[]; now: Date }) {
  if (types.length === 0) return 0;
  const orgIds = (await db.select({ id: organizations.id }).from(organizations)).map((o) => o.id);
  let generated = 0;
  for (const briefType of types) generated += await generateScheduledBriefs({ db, briefType, now, orgIds });
  return generated;
}
