/** My pages: the child's mail threads and chat history (rendered inside the my-pages page). */
export function MyConversations() {
  return null;
}
