/** False until `ms` have passed since the component appeared, then true (a deadline for deferred work). */
import { useEffect, useState } from 'react';

export function useAfterDelay(ms: number): boolean {
  const [due, setDue] = useState(false);
  useEffect(() => {
    const timer = setTimeout(() => setDue(true), ms);
    return () => clearTimeout(timer);
  }, [ms]);
  return due;
}
