import { useRuntimeConfig } from '../config/runtime-config.ts';
import { childPropertyRows } from './child-properties.ts';
import { properties as propertiesStyle } from './counsellor.styles.ts';

/** Age, gender and device of the child, as a description list. */
export function ChildPropertiesList({ properties }: { properties: Record<string, string> | undefined }) {
  const { propertyIds } = useRuntimeConfig();
  return (
    <dl className={propertiesStyle}>
      {childPropertyRows(properties, propertyIds).map((row) => (
        <div key={row.label}>
          <dt>{row.label}</dt>
          <dd>{row.value}</dd>
        </div>
      ))}
    </dl>
  );
}
