import { startPagesFitAPhone } from '../support/phone-walks.ts';

// This variant's start page at 320x568, 360x640 and 390x844, signed out and signed in: nothing
// wider than the screen, 'Lämna sidan' and the header in reach (support/small-screens.ts).
startPagesFitAPhone();
