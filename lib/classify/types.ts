export const CLASSIFICATIONS = ['hot', 'warm', 'cold', 'not_interested', 'ooo'] as const;
export type Classification = (typeof CLASSIFICATIONS)[number];

export function isClassification(v: unknown): v is Classification {
  return typeof v === 'string' && (CLASSIFICATIONS as readonly string[]).includes(v);
}

export interface OfflineResult {
  classification: Classification;
  /** 0..1; derived from the margin between the best and second-best label score. */
  confidence: number;
  /** Names of the signals that fired, for debugging and eval output. */
  signals: string[];
}

export interface HostedResult {
  classification: Classification;
  confidence: number;
}

export interface ClassifyResult {
  classification: Classification;
  confidence: number;
  engine: 'offline' | 'hosted';
}
