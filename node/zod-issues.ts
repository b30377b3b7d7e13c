/** zod's issues in the words main and service answer with: `field.path: message`. */
import type { z } from 'zod';

const fieldOf = (issue: z.core.$ZodIssue) => issue.path.map(String).join('.');

/** Every issue, `path: message` joined by '; '; `root` names an issue about the whole value. */
export function issueText(error: z.ZodError, root = ''): string {
  return error.issues.map((i) => `${fieldOf(i) || root}: ${i.message}`).join('; ');
}

/** The first issue as a field and a problem (a value with no issue listed "is invalid"). */
export function firstIssue(error: z.ZodError): { field: string; problem: string } {
  const issue = error.issues[0];
  return { field: issue ? fieldOf(issue) : '', problem: issue ? issue.message : 'is invalid' };
}
