import { ScreenPlaceholder } from '../../components/screen-placeholder.tsx';

export default function SurveysPage() {
  return <ScreenPlaceholder />;
}
