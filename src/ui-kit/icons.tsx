import type { SVGProps } from 'react';

/** Decorative icons: the button or link around each one carries the Swedish accessible name. */
function Icon(props: SVGProps<SVGSVGElement>) {
  return (
    <svg
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth="2"
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden="true"
      focusable="false"
      {...props}
    />
  );
}

export const CloseIcon = () => (
  <Icon>
    <path d="M6 6l12 12M18 6L6 18" />
  </Icon>
);

export const BellIcon = () => (
  <Icon>
    <path d="M6 8a6 6 0 1 1 12 0c0 7 3 9 3 9H3s3-2 3-9" />
    <path d="M10.3 21a1.94 1.94 0 0 0 3.4 0" />
  </Icon>
);

export const GearIcon = () => (
  <Icon>
    <circle cx="12" cy="12" r="3" />
    <path d="M19.4 15a1.65 1.65 0 0 0 .33 1.82l.06.06a2 2 0 1 1-2.83 2.83l-.06-.06a1.65 1.65 0 0 0-1.82-.33 1.65 1.65 0 0 0-1 1.51V21a2 2 0 1 1-4 0v-.09A1.65 1.65 0 0 0 9 19.4a1.65 1.65 0 0 0-1.82.33l-.06.06a2 2 0 1 1-2.83-2.83l.06-.06A1.65 1.65 0 0 0 4.68 15a1.65 1.65 0 0 0-1.51-1H3a2 2 0 1 1 0-4h.09A1.65 1.65 0 0 0 4.6 9a1.65 1.65 0 0 0-.33-1.82l-.06-.06a2 2 0 1 1 2.83-2.83l.06.06A1.65 1.65 0 0 0 9 4.68a1.65 1.65 0 0 0 1-1.51V3a2 2 0 1 1 4 0v.09a1.65 1.65 0 0 0 1 1.51 1.65 1.65 0 0 0 1.82-.33l.06-.06a2 2 0 1 1 2.83 2.83l-.06.06A1.65 1.65 0 0 0 19.4 9a1.65 1.65 0 0 0 1.51 1H21a2 2 0 1 1 0 4h-.09a1.65 1.65 0 0 0-1.51 1z" />
  </Icon>
);

export const PersonIcon = () => (
  <Icon>
    <circle cx="12" cy="8" r="4" />
    <path d="M4 21a8 8 0 0 1 16 0" />
  </Icon>
);

export const AssistantIcon = () => (
  <Icon>
    <path d="M21 15a2 2 0 0 1-2 2H7l-4 4V5a2 2 0 0 1 2-2h14a2 2 0 0 1 2 2z" />
    <path d="M8 10h.01M12 10h.01M16 10h.01" />
  </Icon>
);

export const LoginIcon = () => (
  <Icon>
    <path d="M15 3h4a2 2 0 0 1 2 2v14a2 2 0 0 1-2 2h-4M10 17l5-5-5-5M15 12H3" />
  </Icon>
);

export const LogoutIcon = () => (
  <Icon>
    <path d="M9 21H5a2 2 0 0 1-2-2V5a2 2 0 0 1 2-2h4M16 17l5-5-5-5M21 12H9" />
  </Icon>
);

export const BackIcon = () => (
  <Icon>
    <path d="M15 18l-6-6 6-6" />
  </Icon>
);

/**
 * Minimise: a chevron pointing down onto a bar (the window goes down to the minimised bar). A bare
 * bottom line read as a stray '_' on a small screen.
 */
export const MinimizeIcon = () => (
  <Icon>
    <path d="M7 8l5 5 5-5" />
    <path d="M6 19h12" />
  </Icon>
);

/** The chat history's favourite star: filled when the conversation is a favourite. */
export const StarIcon = ({ filled }: { filled: boolean }) => (
  <Icon fill={filled ? 'currentColor' : 'none'}>
    <path d="M12 2.5l2.9 6 6.6.9-4.8 4.6 1.2 6.5L12 17.4l-5.9 3.1 1.2-6.5-4.8-4.6 6.6-.9z" />
  </Icon>
);

export const TrashIcon = () => (
  <Icon>
    <path d="M3 6h18M8 6V4h8v2M19 6l-1 14H6L5 6M10 11v6M14 11v6" />
  </Icon>
);

/** A logo is an image with a name, or decoration when its link or button already has the name. */
function imageName(label: string | undefined) {
  return label ? { role: 'img', 'aria-label': label } : { 'aria-hidden': true, focusable: false };
}

/** The product's logo: a speech bubble with a heart. */
export function ProductLogo({ label, size = 40 }: { label?: string; size?: number }) {
  return (
    <svg viewBox="0 0 48 48" width={size} height={size} {...imageName(label)}>
      <path
        d="M6 8h36a4 4 0 0 1 4 4v20a4 4 0 0 1-4 4H18l-10 8v-8H6a4 4 0 0 1-4-4V12a4 4 0 0 1 4-4z"
        fill="#5b2a86"
      />
      <path d="M24 31s-9-5.2-9-11a4.8 4.8 0 0 1 9-2.4A4.8 4.8 0 0 1 33 20c0 5.8-9 11-9 11z" fill="#ffffff" />
    </svg>
  );
}

/** The provider organisation's logo: a round emblem. */
export function OrganisationLogo({ label, size = 32 }: { label?: string; size?: number }) {
  return (
    <svg viewBox="0 0 32 32" width={size} height={size} {...imageName(label)}>
      <circle cx="16" cy="16" r="15" fill="#3f1d5e" />
      <path d="M9 17l5 5 9-11" stroke="#ffffff" strokeWidth="3" fill="none" strokeLinecap="round" />
    </svg>
  );
}
