/**
 * A counsellor's note about a child for the next counsellor, as the staff API answers it
 * (`/portal/staff/conversations/{id}/notes`): what, when, by whom, and on which of the child's
 * conversations. Never in a child's answer (docs/decisions.md, "Notes for the next counsellor").
 */
export interface CounsellorNote {
  id: number;
  text: string;
  createdDate: string;
  authorName: string;
  conversationId: number;
}
