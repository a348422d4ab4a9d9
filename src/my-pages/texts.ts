/** Swedish texts of my pages (SPEC §2 /mina-sidor). */
export const MY_PAGES_TEXTS = {
  heading: 'Mina sidor',
  signedInAs: 'Inloggad som',
  notifications: 'Notiser',
  noNotifications: 'Du har inga nya notiser.',
  newNotifications: (count: number) => (count === 1 ? 'Du har 1 ny notis.' : `Du har ${count} nya notiser.`),
} as const;
