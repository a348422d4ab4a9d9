/** Addresses of the group leader's screens, relative to the console's /gruppledare part. */
export const seriesPath = (seriesId: number | string) => `/serier/${seriesId}`;
export const meetingPath = (seriesId: number | string, meetingId: number | string) =>
  `/serier/${seriesId}/traffar/${meetingId}`;
